-- CreateTable
CREATE TABLE "UsageCounter" (
    "orgId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("orgId", "metric", "period")
);

