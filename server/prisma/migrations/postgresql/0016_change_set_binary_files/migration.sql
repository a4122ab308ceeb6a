-- AlterTable
ALTER TABLE "BuildOverlayFile" ADD COLUMN     "encoding" TEXT NOT NULL DEFAULT 'utf-8';

-- AlterTable
ALTER TABLE "ReviewFile" ADD COLUMN     "encoding" TEXT NOT NULL DEFAULT 'utf-8';

