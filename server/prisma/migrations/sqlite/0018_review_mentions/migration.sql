-- CreateTable
CREATE TABLE "ReviewMention" (
    "commentId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "reviewId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("commentId", "userId"),
    CONSTRAINT "ReviewMention_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "ReviewComment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewMention_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ReviewMention_userId_reviewId_idx" ON "ReviewMention"("userId", "reviewId");

-- CreateIndex
CREATE INDEX "ReviewMention_reviewId_idx" ON "ReviewMention"("reviewId");

