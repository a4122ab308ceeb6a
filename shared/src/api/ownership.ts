/**
 * REST shapes of page ownership (interface-spec.md "Collaboration": `/ownership`,
 * `/ownership/stale`; decisions.md section 9: "Ownership assigns path globs to users;
 * `/ownership/stale` lists owned pages past 90 days"; the payloads are Quire's own and are written
 * into the OpenAPI document).
 *
 * A rule assigns a path glob (shared/src/collab/path-glob.ts) to a member of the organization. A
 * page of the published site belongs to the user of the LAST rule (by creation) whose glob matches
 * its repository file path (`docs/guides/setup.mdx`) or its page path (`guides/setup`): CODEOWNERS
 * semantics, so later, more specific rules override earlier, broader ones.
 */
import { z } from 'zod';
import { TimestampSchema } from './common';
import { PathGlobSchema } from './approvals';
import { UserIdSchema } from './members';

/** Default age past which an owned page is stale, in days (decisions.md section 9). */
export const DEFAULT_STALE_DAYS = 90;
/** Most ownership rules of one project. */
export const MAX_OWNERSHIP_RULES = 500;

/** A user as ownership shows them. */
export const OwnerSchema = z.object({ id: z.string().describe('usr_<id>'), name: z.string(), email: z.string() });
export type Owner = z.infer<typeof OwnerSchema>;

/** `POST /ownership`: assign the pages matching `pattern` to `userId` (a member of the organization). */
export const OwnershipRuleBodySchema = z
  .object({
    pattern: PathGlobSchema,
    userId: UserIdSchema.describe('A member of the project\'s organization'),
  })
  .strict();
export type OwnershipRuleBody = z.infer<typeof OwnershipRuleBodySchema>;

/** An ownership rule as returned. */
export const OwnershipRuleDtoSchema = z.object({
  id: z.string().describe('own_<id>'),
  pattern: z.string(),
  user: OwnerSchema.nullable().describe('null once the user was deleted'),
  createdAt: TimestampSchema,
});
export type OwnershipRuleDto = z.infer<typeof OwnershipRuleDtoSchema>;

/** One page of the published site with its resolved owner. */
export const OwnedPageSchema = z.object({
  path: z.string().describe('Page path (`guides/setup`)'),
  owner: OwnerSchema.nullable().describe('The user of the last matching rule; null when no rule matches'),
  rule: z.string().nullable().describe('own_<id> of that rule'),
});
export type OwnedPage = z.infer<typeof OwnedPageSchema>;

/** `GET /ownership`. */
export const OwnershipSchema = z.object({
  rules: z.array(OwnershipRuleDtoSchema).describe('Oldest first: the order in which later rules win'),
  pages: z.array(OwnedPageSchema).describe('Pages of the newest production deployment, by path; empty before the first deploy'),
});
export type Ownership = z.infer<typeof OwnershipSchema>;

/** Path parameters of one rule. */
export const OwnershipRuleParamsSchema = z.object({ projectId: z.string(), ruleId: z.string().describe('own_<id>') });

/** `GET /ownership/stale` filters (the route adds `page`, `pageSize`/`per_page`). */
export const StaleFiltersSchema = z.object({
  days: z.coerce.number().int().min(1).max(36_500).default(DEFAULT_STALE_DAYS).describe(`Pages not updated for more than this many days (default ${DEFAULT_STALE_DAYS})`),
});
export type StaleFilters = z.infer<typeof StaleFiltersSchema>;

/** An owned page past the age limit. */
export const StalePageSchema = z.object({
  path: z.string().describe('Page path'),
  owner: OwnerSchema,
  lastUpdated: TimestampSchema.describe('Frontmatter `lastUpdated` when the page has one, else the last commit changing its file'),
  source: z.enum(['frontmatter', 'git']),
  daysSince: z.number().int().describe('Whole days from lastUpdated to now'),
});
export type StalePage = z.infer<typeof StalePageSchema>;
