import { configOrExit, runServer } from './run-server';

/** `pnpm start`: the server alone (API, tRPC, build runner, sites) on the configuration from the environment. */
void runServer(configOrExit());
