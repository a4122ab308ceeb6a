import { ApiError } from '@quire/shared/errors';
import { ConfigError } from '../env';
import { EXIT_FAILURE, EXIT_USAGE, UsageError } from './args';
import type { CliIo } from './io';
import { ORG_COMMANDS, ORG_USAGE } from './org';
import { USER_COMMANDS, USER_USAGE } from './user';
import { runWorker } from './worker';

/** Top-level usage of `pnpm quire`. */
export const USAGE = `Usage: pnpm quire <command> <subcommand> [options]

Operator commands for a Quire server (decisions.md section 2).

Commands:
  user add <email> --role <role>   Add a person to an organization (owner, admin, editor, reviewer, viewer)
  user password <email>            Set a person's password, e.g. the bootstrap owner's first one
  org create <name>                Create an organization with an admin API key
  org plan <orgId> <plan>          Move an organization to another plan (limits apply at once)
  worker                           Run a worker process: works build jobs, serves no HTTP (stops on SIGTERM)

Options:
  -h, --help                       show this help; \`pnpm quire <command> <subcommand> --help\` for details

They use the server's database: QUIRE_DATA_DIR (default ./.quire) or DATABASE_URL, and may run
while the server runs. Output is a sentence plus key=value lines for scripts.
Exit status: 0 done, 1 failed (e.g. already a member), 2 wrong usage or configuration.`;

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

const GROUPS: Record<string, { usage: string; commands: Record<string, Command> }> = {
  user: { usage: USER_USAGE, commands: USER_COMMANDS },
  org: { usage: ORG_USAGE, commands: ORG_COMMANDS },
};

function dispatch(argv: readonly string[]): { command: Command; rest: readonly string[] } | { help: string } {
  const [group, sub, ...rest] = argv;
  if (group === 'worker') return { command: runWorker, rest: argv.slice(1) };
  if (group === undefined || group === '--help' || group === '-h' || group === 'help') return { help: USAGE };
  const entry = GROUPS[group];
  if (!entry) throw new UsageError(`Unknown command: ${JSON.stringify(group)}.`, USAGE);
  if (sub === undefined || sub === '--help' || sub === '-h') return { help: entry.usage };
  const command = entry.commands[sub];
  if (!command) throw new UsageError(`Unknown subcommand: ${group} ${JSON.stringify(sub)}.`, entry.usage);
  return { command, rest };
}

/**
 * Runs the `quire` CLI with `argv` (the words after `quire`). Never throws: prints what went
 * wrong on `io.err` and returns the exit status (0 done, 1 failed, 2 usage or configuration).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const target = dispatch(argv);
    if ('help' in target) {
      io.out(target.help);
      return 0;
    }
    return await target.command(target.rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`error: ${err.message}`);
      io.err('');
      io.err(err.usage);
      return EXIT_USAGE;
    }
    if (err instanceof ConfigError) {
      io.err(err.message);
      return EXIT_USAGE;
    }
    if (err instanceof ApiError) {
      io.err(`error: ${err.message}`);
      return EXIT_FAILURE;
    }
    io.err(`error: ${(err as Error).stack ?? String(err)}`);
    return EXIT_FAILURE;
  }
}
