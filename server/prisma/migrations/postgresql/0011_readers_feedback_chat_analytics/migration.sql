-- CreateTable
CREATE TABLE "PageFeedback" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "pagePath" TEXT NOT NULL,
    "helpful" BOOLEAN NOT NULL,
    "comment" TEXT,
    "visitorId" TEXT,
    "userId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PageFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SectionFeedback" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "pagePath" TEXT NOT NULL,
    "sectionId" TEXT NOT NULL,
    "vote" TEXT NOT NULL,
    "comment" TEXT,
    "visitorId" TEXT,
    "userId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SectionFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChatSession" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "visitorId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChatSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChatMessage" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "sources" TEXT NOT NULL DEFAULT '[]',
    "unanswered" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChatMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PageViewCount" (
    "projectId" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "path" TEXT NOT NULL,
    "reader" TEXT NOT NULL,
    "agent" TEXT NOT NULL DEFAULT '',
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "PageViewCount_pkey" PRIMARY KEY ("projectId","hour","path","reader","agent")
);

-- CreateTable
CREATE TABLE "DailyVisitor" (
    "projectId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "visitor" TEXT NOT NULL,
    "reader" TEXT NOT NULL,

    CONSTRAINT "DailyVisitor_pkey" PRIMARY KEY ("projectId","day","visitor")
);

-- CreateTable
CREATE TABLE "AnalyticsSalt" (
    "day" TEXT NOT NULL,
    "salt" TEXT NOT NULL,

    CONSTRAINT "AnalyticsSalt_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "SearchQueryCount" (
    "projectId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "noResults" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SearchQueryCount_pkey" PRIMARY KEY ("projectId","day","query","source")
);

-- CreateIndex
CREATE INDEX "PageFeedback_projectId_pagePath_idx" ON "PageFeedback"("projectId", "pagePath");

-- CreateIndex
CREATE INDEX "PageFeedback_projectId_createdAt_idx" ON "PageFeedback"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "SectionFeedback_projectId_pagePath_idx" ON "SectionFeedback"("projectId", "pagePath");

-- CreateIndex
CREATE INDEX "ChatSession_projectId_visitorId_createdAt_idx" ON "ChatSession"("projectId", "visitorId", "createdAt");

-- CreateIndex
CREATE INDEX "ChatMessage_sessionId_createdAt_idx" ON "ChatMessage"("sessionId", "createdAt");

-- CreateIndex
CREATE INDEX "PageViewCount_projectId_hour_idx" ON "PageViewCount"("projectId", "hour");

-- AddForeignKey
ALTER TABLE "PageFeedback" ADD CONSTRAINT "PageFeedback_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SectionFeedback" ADD CONSTRAINT "SectionFeedback_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChatSession" ADD CONSTRAINT "ChatSession_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChatMessage" ADD CONSTRAINT "ChatMessage_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ChatSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PageViewCount" ADD CONSTRAINT "PageViewCount_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DailyVisitor" ADD CONSTRAINT "DailyVisitor_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SearchQueryCount" ADD CONSTRAINT "SearchQueryCount_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

