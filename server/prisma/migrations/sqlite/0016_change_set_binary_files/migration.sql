-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_BuildOverlayFile" (
    "buildId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "content" TEXT,
    "encoding" TEXT NOT NULL DEFAULT 'utf-8',

    PRIMARY KEY ("buildId", "path"),
    CONSTRAINT "BuildOverlayFile_buildId_fkey" FOREIGN KEY ("buildId") REFERENCES "Build" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_BuildOverlayFile" ("buildId", "content", "path") SELECT "buildId", "content", "path" FROM "BuildOverlayFile";
DROP TABLE "BuildOverlayFile";
ALTER TABLE "new_BuildOverlayFile" RENAME TO "BuildOverlayFile";
CREATE TABLE "new_ReviewFile" (
    "reviewId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "change" TEXT NOT NULL,
    "content" TEXT,
    "encoding" TEXT NOT NULL DEFAULT 'utf-8',

    PRIMARY KEY ("reviewId", "path"),
    CONSTRAINT "ReviewFile_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ReviewFile" ("change", "content", "path", "reviewId") SELECT "change", "content", "path", "reviewId" FROM "ReviewFile";
DROP TABLE "ReviewFile";
ALTER TABLE "new_ReviewFile" RENAME TO "ReviewFile";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

