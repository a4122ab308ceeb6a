import { ApiError } from '@quire/shared/errors';
import { EmailSchema, OrgIdSchema, RoleSchema, ROLES, UserNameSchema } from '@quire/shared/api/members';
import { addMembership, recordMemberChange } from '../services/members';
import { oldestOrganization } from '../services/org-setup';
import { createUser, findUserByEmail, setUserPassword } from '../services/users';
import { argValue, parseCommand, UsageError, type CommandSpec } from './args';
import { withDb } from './db';
import { obtainPassword, type CliIo } from './io';

/** `quire user ...`: people and their passwords (decisions.md section 2). */

const PASSWORD_HELP = `Password: when stdin is not a terminal, its first line is the password (at least 8 characters),
e.g. \`printf '%s\\n' "$PW" | pnpm quire ...\`. Otherwise (a terminal, or empty input such as
\`< /dev/null\`) a one-time password is generated and printed once.`;

/** Usage of `quire user`. */
export const USER_USAGE = `Usage: pnpm quire user <subcommand> [options]

Subcommands:
  add <email> --role <role>   Add a person to an organization (creating the account if new)
  password <email>            Set a person's password (ends their sessions)

Run \`pnpm quire user <subcommand> --help\` for details.`;

const ADD_SPEC = {
  usage: `Usage: pnpm quire user add <email> --role <role> [--name <name>] [--org <orgId>]

Adds the person with <email> to an organization with <role> (${ROLES.join(', ')}).
A new e-mail gets a new account; an existing account keeps its password and gets a membership.

Options:
  --role <role>    organization role (required)
  --name <name>    display name of a new account (default: the part of the e-mail before @)
  --org <orgId>    organization (default: the oldest one, i.e. the server's default organization)
  -h, --help       show this help

${PASSWORD_HELP}

Output: a sentence, then user_id=, email=, org_id=, role= lines, and password= when generated.`,
  positionals: ['email'],
  options: { role: { type: 'string' }, name: { type: 'string' }, org: { type: 'string' } },
} as const satisfies CommandSpec<Record<string, { type: 'string' }>>;

const PASSWORD_SPEC = {
  usage: `Usage: pnpm quire user password <email>

Sets a new password for the account <email> and ends all its sessions. This is also how an
operator gives the bootstrap owner (QUIRE_ADMIN_EMAIL, default admin@quire.local), created
without a usable password, a password to sign in with.

Options:
  -h, --help       show this help

${PASSWORD_HELP}

Output: a sentence, then user_id= and email= lines, and password= when generated.`,
  positionals: ['email'],
  options: {},
} as const satisfies CommandSpec<Record<string, never>>;

/**
 * `quire user add <email> --role <role> [--name] [--org]`.
 * @returns exit status 0 on success.
 * @throws UsageError for bad arguments; ApiError (not_found: unknown org; conflict: already a member;
 *   invalid_request: password outside the policy).
 */
export async function userAdd(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseCommand(ADD_SPEC, argv);
  if (args.help) {
    io.out(ADD_SPEC.usage);
    return 0;
  }
  const email = argValue(EmailSchema, args.positionals.email, '<email>', ADD_SPEC.usage);
  if (args.options.role === undefined) throw new UsageError('Missing option: --role <role>.', ADD_SPEC.usage);
  const role = argValue(RoleSchema, args.options.role, '--role', ADD_SPEC.usage);
  const name = args.options.name === undefined ? undefined : argValue(UserNameSchema, args.options.name, '--name', ADD_SPEC.usage);
  const orgOption = args.options.org === undefined ? undefined : argValue(OrgIdSchema, args.options.org, '--org', ADD_SPEC.usage);

  return withDb(io, async (db) => {
    const org = orgOption
      ? await db.prisma.organization.findUnique({ where: { id: orgOption }, select: { id: true, name: true } })
      : await oldestOrganization(db);
    if (!org) {
      throw new ApiError(
        'not_found',
        orgOption
          ? `No organization ${orgOption}.`
          : 'There is no organization yet: start the server once (pnpm start) or run `pnpm quire org create <name>`.',
      );
    }
    const existing = await findUserByEmail(db, email);
    let userId: string;
    let generated: string | undefined;
    if (existing) {
      userId = existing.id;
      await addMembership(db, { orgId: org.id, userId, role });
      await recordMemberChange(db.prisma, { orgId: org.id, actorUserId: null, action: 'member.added', member: { id: userId, email }, metadata: { role, newAccount: false } });
      io.out(`Added the existing account ${email} to ${org.name} as ${role}; its password is unchanged.`);
    } else {
      const obtained = await obtainPassword(io);
      const user = await createUser(db, { email, name, password: obtained.password });
      userId = user.id;
      try {
        await addMembership(db, { orgId: org.id, userId, role });
        await recordMemberChange(db.prisma, { orgId: org.id, actorUserId: null, action: 'member.added', member: { id: userId, email }, metadata: { role, newAccount: true } });
      } catch (err) {
        await db.prisma.user.deleteMany({ where: { id: userId } });
        throw err;
      }
      if (obtained.generated) generated = obtained.password;
      io.out(`Created ${email} and added them to ${org.name} as ${role}.${generated ? ' The one-time password below is shown only this once.' : ''}`);
    }
    io.out(`user_id=${userId}`);
    io.out(`email=${email}`);
    io.out(`org_id=${org.id}`);
    io.out(`role=${role}`);
    if (generated) io.out(`password=${generated}`);
    return 0;
  });
}

/**
 * `quire user password <email>`.
 * @returns exit status 0 on success.
 * @throws UsageError for bad arguments; ApiError not_found for an unknown account, invalid_request
 *   for a password outside the policy.
 */
export async function userPassword(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseCommand(PASSWORD_SPEC, argv);
  if (args.help) {
    io.out(PASSWORD_SPEC.usage);
    return 0;
  }
  const email = argValue(EmailSchema, args.positionals.email, '<email>', PASSWORD_SPEC.usage);
  return withDb(io, async (db) => {
    const user = await findUserByEmail(db, email);
    if (!user) throw new ApiError('not_found', `No account with e-mail ${email}.`);
    const obtained = await obtainPassword(io);
    await setUserPassword(db, user.id, obtained.password);
    io.out(`Set a new password for ${email} and ended their sessions.${obtained.generated ? ' The one-time password below is shown only this once.' : ''}`);
    io.out(`user_id=${user.id}`);
    io.out(`email=${email}`);
    if (obtained.generated) io.out(`password=${obtained.password}`);
    return 0;
  });
}

/** Subcommands of `quire user`, by name. */
export const USER_COMMANDS = { add: userAdd, password: userPassword } as const;
