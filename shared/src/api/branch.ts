/**
 * The branch-name field of request bodies (`repoBranch`, build triggers, branch reviews, source
 * repositories of the docs agent): the shared rule of `../repo/git-ref` (git's check-ref-format).
 */
import { z } from 'zod';
import { BRANCH_MAX_LENGTH, checkBranchName } from '../repo/git-ref';

/** Git branch names accepted for `repoBranch` and build triggers: the shared rule of `../repo/git-ref`. */
export const BranchSchema = z
  .string()
  .min(1)
  .max(BRANCH_MAX_LENGTH)
  .superRefine((branch, ctx) => {
    const check = checkBranchName(branch);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.issue });
  })
  .describe("A git branch name: letters, digits and '.', '_', '-', '/', '+', '@'; git's check-ref-format rules; no leading '-'");
