-- CreateTable
CREATE TABLE "LintReport" (
    "buildId" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "pages" TEXT NOT NULL,
    "counts" TEXT NOT NULL,
    "pageCount" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LintReport_buildId_fkey" FOREIGN KEY ("buildId") REFERENCES "Build" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "LintReport_projectId_createdAt_idx" ON "LintReport"("projectId", "createdAt");

