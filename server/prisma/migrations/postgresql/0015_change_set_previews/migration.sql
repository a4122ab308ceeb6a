-- CreateTable
CREATE TABLE "BuildOverlayFile" (
    "buildId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "content" TEXT,

    CONSTRAINT "BuildOverlayFile_pkey" PRIMARY KEY ("buildId","path")
);

-- AddForeignKey
ALTER TABLE "BuildOverlayFile" ADD CONSTRAINT "BuildOverlayFile_buildId_fkey" FOREIGN KEY ("buildId") REFERENCES "Build"("id") ON DELETE CASCADE ON UPDATE CASCADE;

