-- CreateTable
CREATE TABLE "ReviewMention" (
    "commentId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "reviewId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewMention_pkey" PRIMARY KEY ("commentId","userId")
);

-- CreateIndex
CREATE INDEX "ReviewMention_userId_reviewId_idx" ON "ReviewMention"("userId", "reviewId");

-- CreateIndex
CREATE INDEX "ReviewMention_reviewId_idx" ON "ReviewMention"("reviewId");

-- AddForeignKey
ALTER TABLE "ReviewMention" ADD CONSTRAINT "ReviewMention_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "ReviewComment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewMention" ADD CONSTRAINT "ReviewMention_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review"("id") ON DELETE CASCADE ON UPDATE CASCADE;

