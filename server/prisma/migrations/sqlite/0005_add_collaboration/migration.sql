-- AlterTable
ALTER TABLE "Build" ADD COLUMN "reviewId" TEXT;
ALTER TABLE "Build" ADD COLUMN "step" TEXT;

-- CreateTable
CREATE TABLE "Review" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL,
    "authorId" TEXT,
    "source" TEXT NOT NULL,
    "branch" TEXT NOT NULL,
    "headBranch" TEXT,
    "baseCommit" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "previewBuildId" TEXT,
    "mergeCommit" TEXT,
    "mergedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Review_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewFile" (
    "reviewId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "change" TEXT NOT NULL,
    "content" TEXT,

    PRIMARY KEY ("reviewId", "path"),
    CONSTRAINT "ReviewFile_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewReviewer" (
    "reviewId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    PRIMARY KEY ("reviewId", "userId"),
    CONSTRAINT "ReviewReviewer_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewComment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "reviewId" TEXT NOT NULL,
    "parentId" TEXT,
    "path" TEXT NOT NULL,
    "lineStart" INTEGER NOT NULL,
    "lineEnd" INTEGER NOT NULL,
    "revision" INTEGER NOT NULL,
    "anchorText" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "authorId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReviewComment_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GitCredential" (
    "projectId" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "username" TEXT,
    "secret" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "GitCredential_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApprovalGate" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "paths" TEXT NOT NULL,
    "requiredApprovals" INTEGER NOT NULL,
    "eligibleUsers" TEXT NOT NULL DEFAULT '[]',
    "eligibleRoles" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ApprovalGate_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "buildId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "gateIds" TEXT NOT NULL,
    "paths" TEXT NOT NULL,
    "requiredApprovals" INTEGER NOT NULL,
    "authorId" TEXT,
    "reason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" DATETIME,
    CONSTRAINT "Approval_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApprovalDecision" (
    "approvalId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "reason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("approvalId", "userId"),
    CONSTRAINT "ApprovalDecision_approvalId_fkey" FOREIGN KEY ("approvalId") REFERENCES "Approval" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Schedule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "ref" TEXT,
    "reviewId" TEXT,
    "runAt" DATETIME NOT NULL,
    "status" TEXT NOT NULL,
    "createdById" TEXT,
    "ranAt" DATETIME,
    "late" BOOLEAN NOT NULL DEFAULT false,
    "buildId" TEXT,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Schedule_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OwnershipRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "pattern" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OwnershipRule_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Review_projectId_status_updatedAt_idx" ON "Review"("projectId", "status", "updatedAt");

-- CreateIndex
CREATE INDEX "Review_projectId_authorId_idx" ON "Review"("projectId", "authorId");

-- CreateIndex
CREATE INDEX "ReviewReviewer_userId_idx" ON "ReviewReviewer"("userId");

-- CreateIndex
CREATE INDEX "ReviewComment_reviewId_createdAt_idx" ON "ReviewComment"("reviewId", "createdAt");

-- CreateIndex
CREATE INDEX "ApprovalGate_projectId_idx" ON "ApprovalGate"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "Approval_buildId_key" ON "Approval"("buildId");

-- CreateIndex
CREATE INDEX "Approval_projectId_status_createdAt_idx" ON "Approval"("projectId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Schedule_projectId_runAt_idx" ON "Schedule"("projectId", "runAt");

-- CreateIndex
CREATE INDEX "Schedule_status_runAt_idx" ON "Schedule"("status", "runAt");

-- CreateIndex
CREATE INDEX "OwnershipRule_projectId_idx" ON "OwnershipRule"("projectId");

