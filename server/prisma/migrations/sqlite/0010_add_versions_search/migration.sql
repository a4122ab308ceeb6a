-- AlterTable
ALTER TABLE "Build" ADD COLUMN "version" TEXT;

-- CreateTable
CREATE TABLE "ReindexJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "full" BOOLEAN NOT NULL DEFAULT false,
    "pagesIndexed" INTEGER,
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "ReindexJob_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ContentGap" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "version" TEXT NOT NULL DEFAULT '',
    "frequency" INTEGER NOT NULL DEFAULT 1,
    "firstSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ContentGap_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ReindexJob_projectId_createdAt_idx" ON "ReindexJob"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "ReindexJob_projectId_status_idx" ON "ReindexJob"("projectId", "status");

-- CreateIndex
CREATE INDEX "ContentGap_projectId_frequency_idx" ON "ContentGap"("projectId", "frequency");

-- CreateIndex
CREATE UNIQUE INDEX "ContentGap_projectId_source_version_topic_key" ON "ContentGap"("projectId", "source", "version", "topic");

