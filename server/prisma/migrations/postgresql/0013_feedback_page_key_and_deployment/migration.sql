-- DropIndex
DROP INDEX "PageFeedback_projectId_pagePath_idx";

-- DropIndex
DROP INDEX "SectionFeedback_projectId_pagePath_idx";

-- AlterTable
ALTER TABLE "PageFeedback" ADD COLUMN     "deployment" TEXT NOT NULL DEFAULT 'production',
ADD COLUMN     "pageKey" TEXT;
-- Rows written before this migration stored the normalised path in "pagePath": it is their page key.
UPDATE "PageFeedback" SET "pageKey" = "pagePath";
ALTER TABLE "PageFeedback" ALTER COLUMN "pageKey" SET NOT NULL;

-- AlterTable
ALTER TABLE "SectionFeedback" ADD COLUMN     "deployment" TEXT NOT NULL DEFAULT 'production',
ADD COLUMN     "pageKey" TEXT;
-- Rows written before this migration stored the normalised path in "pagePath": it is their page key.
UPDATE "SectionFeedback" SET "pageKey" = "pagePath";
ALTER TABLE "SectionFeedback" ALTER COLUMN "pageKey" SET NOT NULL;

-- CreateIndex
CREATE INDEX "PageFeedback_projectId_deployment_pageKey_idx" ON "PageFeedback"("projectId", "deployment", "pageKey");

-- CreateIndex
CREATE INDEX "SectionFeedback_projectId_deployment_pageKey_idx" ON "SectionFeedback"("projectId", "deployment", "pageKey");

