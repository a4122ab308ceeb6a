import { EmailSchema } from '@quire/shared/api/members';
import { ConfigSchema } from '../env';
import { setUpOrganization } from '../services/org-setup';
import { argValue, parseCommand, type CommandSpec } from './args';
import { withDb } from './db';
import type { CliIo } from './io';

/** `quire org ...`: organizations (decisions.md section 2). */

/** The plan values, from the configuration schema (QUIRE_DEFAULT_PLAN accepts the same). */
const PlanSchema = ConfigSchema.shape.defaultPlan.unwrap();

/** Usage of `quire org`. */
export const ORG_USAGE = `Usage: pnpm quire org <subcommand> [options]

Subcommands:
  create <name>    Create an organization with an admin API key (and optionally its owner)

Run \`pnpm quire org create --help\` for details.`;

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

/** Subcommands of `quire org`, by name. */
export const ORG_COMMANDS = { create: orgCreate } as const;
