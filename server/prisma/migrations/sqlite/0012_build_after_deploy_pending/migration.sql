-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Build" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "branch" TEXT NOT NULL,
    "commitSha" TEXT,
    "commitMessage" TEXT,
    "isPreview" BOOLEAN NOT NULL DEFAULT false,
    "force" BOOLEAN NOT NULL DEFAULT false,
    "url" TEXT,
    "duration" INTEGER,
    "error" TEXT,
    "changedFiles" TEXT,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "deployedAt" DATETIME,
    "reviewId" TEXT,
    "step" TEXT,
    "deliveryId" TEXT,
    "previewName" TEXT,
    "pullRequest" INTEGER,
    "pullRequestTitle" TEXT,
    "changedSince" TEXT,
    "version" TEXT,
    "afterDeployPending" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Build_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Build" ("branch", "cancelRequested", "changedFiles", "changedSince", "commitMessage", "commitSha", "createdAt", "createdById", "deliveryId", "deployedAt", "duration", "error", "finishedAt", "force", "id", "isPreview", "previewName", "projectId", "pullRequest", "pullRequestTitle", "reviewId", "startedAt", "status", "step", "trigger", "url", "version") SELECT "branch", "cancelRequested", "changedFiles", "changedSince", "commitMessage", "commitSha", "createdAt", "createdById", "deliveryId", "deployedAt", "duration", "error", "finishedAt", "force", "id", "isPreview", "previewName", "projectId", "pullRequest", "pullRequestTitle", "reviewId", "startedAt", "status", "step", "trigger", "url", "version" FROM "Build";
DROP TABLE "Build";
ALTER TABLE "new_Build" RENAME TO "Build";
CREATE INDEX "Build_projectId_createdAt_idx" ON "Build"("projectId", "createdAt");
CREATE INDEX "Build_status_idx" ON "Build"("status");
CREATE INDEX "Build_afterDeployPending_idx" ON "Build"("afterDeployPending");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

