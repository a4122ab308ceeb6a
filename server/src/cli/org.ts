import { EmailSchema } from '@quire/shared/api/members';
import { ConfigSchema } from '../env';
import { z } from 'zod';
import { EventBus } from '../events';
import { RedisEventTransport } from '../events/redis-transport';
import { closeRedis, openRedis } from '../redis';
import { changeOrganizationPlan, planLimits } from '../services/organizations';
import { setUpOrganization } from '../services/org-setup';
import { argValue, EXIT_FAILURE, parseCommand, UsageError, type CommandSpec } from './args';
import { withDb } from './db';
import type { CliIo } from './io';

/** `quire org ...`: organizations (decisions.md section 2). */

/** The plan values, from the configuration schema (QUIRE_DEFAULT_PLAN accepts the same). */
const PlanSchema = ConfigSchema.shape.defaultPlan.unwrap();

/** Usage of `quire org`. */
export const ORG_USAGE = `Usage: pnpm quire org <subcommand> [options]

Subcommands:
  create <name>            Create an organization with an admin API key (and optionally its owner)
  plan <orgId> <plan>      Move an organization to another plan (its limits apply at once)

Run \`pnpm quire org <subcommand> --help\` for details.`;

const CREATE_SPEC = {
  usage: `Usage: pnpm quire org create <name> [--plan free|pro|enterprise] [--owner <email>]

Creates an organization, so one server can host many. Nothing of one organization is visible
to another. Run it against the server's QUIRE_DATA_DIR / DATABASE_URL (also while it runs).

Options:
  --plan <plan>     free (100 req/min, 5 projects), pro (1,000 req/min, 100 projects) or
                    enterprise (limits from configuration); default QUIRE_DEFAULT_PLAN (pro)
  --owner <email>   make this person the owner; a new e-mail gets an account with a one-time
                    password (printed once), an existing account gets a membership
  -h, --help        show this help

Output: a sentence, then org_id=, plan=, api_key= (an admin key, shown only once) lines, and
owner_id=, owner_email=, and owner_password= (new accounts only) with --owner.`,
  positionals: ['name'],
  options: { plan: { type: 'string' }, owner: { type: 'string' } },
} as const satisfies CommandSpec<Record<string, { type: 'string' }>>;

/**
 * `quire org create <name> [--plan] [--owner]`.
 * @returns exit status 0 on success.
 * @throws UsageError for bad arguments; ApiError invalid_request for an empty name.
 */
export async function orgCreate(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseCommand(CREATE_SPEC, argv);
  if (args.help) {
    io.out(CREATE_SPEC.usage);
    return 0;
  }
  const plan = args.options.plan === undefined ? undefined : argValue(PlanSchema, args.options.plan, '--plan', CREATE_SPEC.usage);
  const ownerEmail = args.options.owner === undefined ? undefined : argValue(EmailSchema, args.options.owner, '--owner', CREATE_SPEC.usage);
  return withDb(io, async (db, config) => {
    const setup = await setUpOrganization(db, { name: args.positionals.name!, plan: plan ?? config.defaultPlan, ownerEmail });
    const ownerSentence = setup.owner
      ? setup.owner.created
        ? ` Created its owner ${setup.owner.user.email}.`
        : ` Made the existing account ${setup.owner.user.email} its owner.`
      : '';
    io.out(`Created organization "${setup.org.name}" on the ${setup.org.plan} plan.${ownerSentence} The admin key below is shown only this once.`);
    io.out(`org_id=${setup.org.id}`);
    io.out(`plan=${setup.org.plan}`);
    io.out(`api_key=${setup.apiKey.key}`);
    if (setup.owner) {
      io.out(`owner_id=${setup.owner.user.id}`);
      io.out(`owner_email=${setup.owner.user.email}`);
      if (setup.owner.oneTimePassword) io.out(`owner_password=${setup.owner.oneTimePassword}`);
    }
    return 0;
  });
}

const PLAN_SPEC = {
  usage: `Usage: pnpm quire org plan <orgId> <free|pro|enterprise> [--rate-limit <n>] [--project-limit <n>]

Moves an organization to another plan. Run it against the server's DATABASE_URL / QUIRE_DATA_DIR
(also while servers run). With REDIS_URL (and the servers' QUIRE_QUEUE_PREFIX) every running
process applies the new limits to its next request; without it a running server applies them
within 60 s (its key cache's refresh).

Options:
  --rate-limit <n>     enterprise only: requests per minute (default QUIRE_ENTERPRISE_RATE_LIMIT)
  --project-limit <n>  enterprise only: most projects (default QUIRE_ENTERPRISE_PROJECT_LIMIT)
  -h, --help           show this help

Output: a sentence, then org_id=, plan=, rate_limit= and project_limit= lines.`,
  positionals: ['orgId', 'plan'],
  options: { 'rate-limit': { type: 'string' }, 'project-limit': { type: 'string' } },
} as const satisfies CommandSpec<Record<string, { type: 'string' }>>;

const LimitSchema = z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000_000_000, 'must be at most 1000000000');

/**
 * `quire org plan <orgId> <plan> [--rate-limit] [--project-limit]` (decisions.md section 2).
 * @returns 0 on success, 1 when no organization has the id.
 * @throws UsageError for bad arguments (limits given for a plan other than enterprise included).
 */
export async function orgPlan(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseCommand(PLAN_SPEC, argv);
  if (args.help) {
    io.out(PLAN_SPEC.usage);
    return 0;
  }
  const plan = argValue(PlanSchema, args.positionals.plan, '<plan>', PLAN_SPEC.usage);
  const rawRate = args.options['rate-limit'];
  const rawProjects = args.options['project-limit'];
  if ((rawRate !== undefined || rawProjects !== undefined) && plan !== 'enterprise') {
    throw new UsageError('--rate-limit and --project-limit apply to the enterprise plan only.', PLAN_SPEC.usage);
  }
  const rateLimit = rawRate === undefined ? null : argValue(LimitSchema, rawRate, '--rate-limit', PLAN_SPEC.usage);
  const projectLimit = rawProjects === undefined ? null : argValue(LimitSchema, rawProjects, '--project-limit', PLAN_SPEC.usage);
  return withDb(io, async (db, config) => {
    const redis = config.redisUrl ? openRedis(config.redisUrl, { warn: (obj, msg) => io.err(`warning: ${msg}`) }, 'quire-cli') : null;
    const events = redis ? new EventBus(new RedisEventTransport(redis, config.queuePrefix, { warn: (_obj, msg) => io.err(`warning: ${msg}`) })) : new EventBus();
    try {
      await events.ready();
      const org = await changeOrganizationPlan({ db, events }, { orgId: args.positionals.orgId!, plan, rateLimit, projectLimit });
      if (!org) {
        io.err(`error: no organization ${args.positionals.orgId}.`);
        return EXIT_FAILURE;
      }
      const limits = planLimits(org, config);
      io.out(`Organization "${org.name}" is now on the ${org.plan} plan${redis ? '; running servers apply it to their next request.' : '; a running server applies it within 60 s.'}`);
      io.out(`org_id=${org.id}`);
      io.out(`plan=${org.plan}`);
      io.out(`rate_limit=${limits.rateLimit}`);
      io.out(`project_limit=${limits.projectLimit}`);
      return 0;
    } finally {
      await events.close();
      if (redis) await closeRedis(redis);
    }
  });
}

/** Subcommands of `quire org`, by name. */
export const ORG_COMMANDS = { create: orgCreate, plan: orgPlan } as const;
