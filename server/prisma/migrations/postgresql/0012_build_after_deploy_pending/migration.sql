-- AlterTable
ALTER TABLE "Build" ADD COLUMN     "afterDeployPending" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Build_afterDeployPending_idx" ON "Build"("afterDeployPending");

