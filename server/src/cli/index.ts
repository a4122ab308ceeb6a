import { processIo } from './io';
import { runCli } from './run';

/**
 * Entry point of `pnpm quire` (root package.json: `tsx server/src/cli/index.ts`).
 * See ./run for the commands; exits with the status `runCli` returns.
 */
const status = await runCli(process.argv.slice(2), processIo());
process.stdin.destroy();
process.exitCode = status;
