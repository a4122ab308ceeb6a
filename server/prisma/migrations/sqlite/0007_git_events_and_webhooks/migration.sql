-- AlterTable
ALTER TABLE "Build" ADD COLUMN "deliveryId" TEXT;
ALTER TABLE "Build" ADD COLUMN "previewName" TEXT;
ALTER TABLE "Build" ADD COLUMN "pullRequest" INTEGER;
ALTER TABLE "Build" ADD COLUMN "pullRequestTitle" TEXT;

-- CreateTable
CREATE TABLE "GitDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "receiver" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL DEFAULT '',
    "event" TEXT NOT NULL,
    "action" TEXT,
    "signature" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "buildIds" TEXT NOT NULL DEFAULT '[]',
    "repository" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "GithubInstallation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "repositories" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "events" TEXT NOT NULL DEFAULT '[]',
    "secret" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "WebhookEndpoint_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WebhookMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "eventKey" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "lastStatusCode" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME,
    CONSTRAINT "WebhookMessage_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "messageId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "requestHeaders" TEXT NOT NULL,
    "statusCode" INTEGER,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "responseBody" TEXT,
    "durationMs" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WebhookAttempt_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "WebhookMessage" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "GitDelivery_projectId_createdAt_idx" ON "GitDelivery"("projectId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "GitDelivery_receiver_deliveryId_projectId_key" ON "GitDelivery"("receiver", "deliveryId", "projectId");

-- CreateIndex
CREATE INDEX "WebhookEndpoint_projectId_createdAt_idx" ON "WebhookEndpoint"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookMessage_orgId_createdAt_idx" ON "WebhookMessage"("orgId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookMessage_status_nextAttemptAt_idx" ON "WebhookMessage"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookMessage_endpointId_eventKey_key" ON "WebhookMessage"("endpointId", "eventKey");

-- CreateIndex
CREATE INDEX "WebhookAttempt_messageId_createdAt_idx" ON "WebhookAttempt"("messageId", "createdAt");

