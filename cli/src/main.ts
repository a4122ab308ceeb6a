/**
 * The `quire-docs` executable: runs a command (commands.ts) and exits with its status.
 */
import { runCli } from './commands';

try {
  process.exitCode = await runCli(process.argv.slice(2), { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), cwd: process.cwd() });
} catch (err) {
  process.stderr.write(`quire-docs: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exitCode = 2;
}
