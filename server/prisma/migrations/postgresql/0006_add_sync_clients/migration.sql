-- CreateTable
CREATE TABLE "SyncClient" (
    "clientId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SyncClient_pkey" PRIMARY KEY ("clientId")
);

-- CreateTable
CREATE TABLE "SyncResult" (
    "clientId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "result" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SyncResult_pkey" PRIMARY KEY ("clientId","seq")
);

-- CreateIndex
CREATE INDEX "SyncClient_userId_idx" ON "SyncClient"("userId");

