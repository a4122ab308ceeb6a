-- CreateTable
CREATE TABLE "BuildOverlayFile" (
    "buildId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "content" TEXT,

    PRIMARY KEY ("buildId", "path"),
    CONSTRAINT "BuildOverlayFile_buildId_fkey" FOREIGN KEY ("buildId") REFERENCES "Build" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

