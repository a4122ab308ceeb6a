-- AlterTable
ALTER TABLE "Build" ADD COLUMN     "changedSince" TEXT;

