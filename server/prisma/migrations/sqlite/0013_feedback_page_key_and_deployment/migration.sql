-- Rows written before this migration stored the normalised path in "pagePath": it is their page key.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PageFeedback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "pagePath" TEXT NOT NULL,
    "pageKey" TEXT NOT NULL,
    "deployment" TEXT NOT NULL DEFAULT 'production',
    "helpful" BOOLEAN NOT NULL,
    "comment" TEXT,
    "visitorId" TEXT,
    "userId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PageFeedback_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_PageFeedback" ("comment", "createdAt", "helpful", "id", "pagePath", "projectId", "userId", "visitorId", "pageKey") SELECT "comment", "createdAt", "helpful", "id", "pagePath", "projectId", "userId", "visitorId", "pagePath" FROM "PageFeedback";
DROP TABLE "PageFeedback";
ALTER TABLE "new_PageFeedback" RENAME TO "PageFeedback";
CREATE INDEX "PageFeedback_projectId_deployment_pageKey_idx" ON "PageFeedback"("projectId", "deployment", "pageKey");
CREATE INDEX "PageFeedback_projectId_createdAt_idx" ON "PageFeedback"("projectId", "createdAt");
CREATE TABLE "new_SectionFeedback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "pagePath" TEXT NOT NULL,
    "pageKey" TEXT NOT NULL,
    "deployment" TEXT NOT NULL DEFAULT 'production',
    "sectionId" TEXT NOT NULL,
    "vote" TEXT NOT NULL,
    "comment" TEXT,
    "visitorId" TEXT,
    "userId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SectionFeedback_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_SectionFeedback" ("comment", "createdAt", "id", "pagePath", "projectId", "sectionId", "userId", "visitorId", "vote", "pageKey") SELECT "comment", "createdAt", "id", "pagePath", "projectId", "sectionId", "userId", "visitorId", "vote", "pagePath" FROM "SectionFeedback";
DROP TABLE "SectionFeedback";
ALTER TABLE "new_SectionFeedback" RENAME TO "SectionFeedback";
CREATE INDEX "SectionFeedback_projectId_deployment_pageKey_idx" ON "SectionFeedback"("projectId", "deployment", "pageKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

