-- CreateTable
CREATE TABLE "PageFeedback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "pagePath" TEXT NOT NULL,
    "helpful" BOOLEAN NOT NULL,
    "comment" TEXT,
    "visitorId" TEXT,
    "userId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PageFeedback_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SectionFeedback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "pagePath" TEXT NOT NULL,
    "sectionId" TEXT NOT NULL,
    "vote" TEXT NOT NULL,
    "comment" TEXT,
    "visitorId" TEXT,
    "userId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SectionFeedback_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChatSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "visitorId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ChatSession_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChatMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "sources" TEXT NOT NULL DEFAULT '[]',
    "unanswered" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ChatMessage_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ChatSession" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PageViewCount" (
    "projectId" TEXT NOT NULL,
    "hour" DATETIME NOT NULL,
    "path" TEXT NOT NULL,
    "reader" TEXT NOT NULL,
    "agent" TEXT NOT NULL DEFAULT '',
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("projectId", "hour", "path", "reader", "agent"),
    CONSTRAINT "PageViewCount_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DailyVisitor" (
    "projectId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "visitor" TEXT NOT NULL,
    "reader" TEXT NOT NULL,

    PRIMARY KEY ("projectId", "day", "visitor"),
    CONSTRAINT "DailyVisitor_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnalyticsSalt" (
    "day" TEXT NOT NULL PRIMARY KEY,
    "salt" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "SearchQueryCount" (
    "projectId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "noResults" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("projectId", "day", "query", "source"),
    CONSTRAINT "SearchQueryCount_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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

