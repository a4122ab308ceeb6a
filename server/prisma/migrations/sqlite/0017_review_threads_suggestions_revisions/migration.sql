-- CreateTable
CREATE TABLE "ReviewRevision" (
    "reviewId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "baseCommit" TEXT NOT NULL,
    "files" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("reviewId", "revision"),
    CONSTRAINT "ReviewRevision_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ReviewComment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "reviewId" TEXT NOT NULL,
    "parentId" TEXT,
    "path" TEXT,
    "lineStart" INTEGER,
    "lineEnd" INTEGER,
    "revision" INTEGER NOT NULL,
    "anchorText" TEXT,
    "body" TEXT NOT NULL,
    "authorId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" DATETIME,
    "resolvedById" TEXT,
    "suggestionText" TEXT,
    "appliedAt" DATETIME,
    CONSTRAINT "ReviewComment_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ReviewComment" ("anchorText", "authorId", "body", "createdAt", "id", "lineEnd", "lineStart", "parentId", "path", "reviewId", "revision") SELECT "anchorText", "authorId", "body", "createdAt", "id", "lineEnd", "lineStart", "parentId", "path", "reviewId", "revision" FROM "ReviewComment";
DROP TABLE "ReviewComment";
ALTER TABLE "new_ReviewComment" RENAME TO "ReviewComment";
CREATE INDEX "ReviewComment_reviewId_createdAt_idx" ON "ReviewComment"("reviewId", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

