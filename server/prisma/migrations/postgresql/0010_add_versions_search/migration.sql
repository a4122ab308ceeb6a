-- AlterTable
ALTER TABLE "Build" ADD COLUMN     "version" TEXT;

-- CreateTable
CREATE TABLE "ReindexJob" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "full" BOOLEAN NOT NULL DEFAULT false,
    "pagesIndexed" INTEGER,
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ReindexJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ContentGap" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "version" TEXT NOT NULL DEFAULT '',
    "frequency" INTEGER NOT NULL DEFAULT 1,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContentGap_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReindexJob_projectId_createdAt_idx" ON "ReindexJob"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "ReindexJob_projectId_status_idx" ON "ReindexJob"("projectId", "status");

-- CreateIndex
CREATE INDEX "ContentGap_projectId_frequency_idx" ON "ContentGap"("projectId", "frequency");

-- CreateIndex
CREATE UNIQUE INDEX "ContentGap_projectId_source_version_topic_key" ON "ContentGap"("projectId", "source", "version", "topic");

-- AddForeignKey
ALTER TABLE "ReindexJob" ADD CONSTRAINT "ReindexJob_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContentGap" ADD CONSTRAINT "ContentGap_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

