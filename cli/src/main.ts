/**
 * The `quire-docs` executable: runs a command (commands.ts) and exits with its status.
 */
import { runCli } from './commands';

// `pnpm quire-docs` runs the root package's script from the checkout's root: folders are named from where it was typed.
const cwd = process.env.npm_lifecycle_event === 'quire-docs' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();
try {
  process.exitCode = await runCli(process.argv.slice(2), { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), cwd });
} catch (err) {
  process.stderr.write(`quire-docs: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exitCode = 2;
}
