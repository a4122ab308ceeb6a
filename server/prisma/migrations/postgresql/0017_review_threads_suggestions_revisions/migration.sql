-- AlterTable
ALTER TABLE "ReviewComment" ADD COLUMN     "appliedAt" TIMESTAMP(3),
ADD COLUMN     "resolvedAt" TIMESTAMP(3),
ADD COLUMN     "resolvedById" TEXT,
ADD COLUMN     "suggestionText" TEXT,
ALTER COLUMN "path" DROP NOT NULL,
ALTER COLUMN "lineStart" DROP NOT NULL,
ALTER COLUMN "lineEnd" DROP NOT NULL,
ALTER COLUMN "anchorText" DROP NOT NULL;

-- CreateTable
CREATE TABLE "ReviewRevision" (
    "reviewId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "baseCommit" TEXT NOT NULL,
    "files" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewRevision_pkey" PRIMARY KEY ("reviewId","revision")
);

-- AddForeignKey
ALTER TABLE "ReviewRevision" ADD CONSTRAINT "ReviewRevision_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review"("id") ON DELETE CASCADE ON UPDATE CASCADE;

