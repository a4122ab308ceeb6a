/**
 * The real services some tests need (PostgreSQL, Redis), found on the machine or not: one rule for
 * every test file. Each `require*` resolves to the service's connection information when it
 * answers; when it does not, it throws on CI (`process.env.CI` set: CI always runs them, so a
 * missing service must fail the run) and elsewhere prints why and resolves to null, for the file to
 * skip with `describe.skipIf(!service)`. Callers create their own database / key prefix and remove
 * it after.
 *
 * @example
 * const redis = await requireRedis();
 * describe.skipIf(!redis)('events over Redis', () => { ... redis!.url ... });
 */
import net from 'node:net';

/** A reachable service. */
export interface ServiceInfo {
  /** Connection URL, e.g. `redis://127.0.0.1:6379` or `postgresql://postgres@127.0.0.1:5432/postgres`. */
  url: string;
  host: string;
  port: number;
}

/** How long a connection attempt may take before the service counts as absent. */
const CONNECT_TIMEOUT_MS = 1_000;

/** Redis of the tests: `QUIRE_TEST_REDIS_URL`, default `redis://127.0.0.1:6379`. */
export function requireRedis(): Promise<ServiceInfo | null> {
  return requireService('Redis', process.env.QUIRE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', 6379);
}

/**
 * PostgreSQL of the tests (a superuser that may create databases): `QUIRE_TEST_POSTGRES_URL`,
 * default `postgresql://postgres@127.0.0.1:5432/postgres` (trust auth).
 */
export function requirePostgres(): Promise<ServiceInfo | null> {
  return requireService('PostgreSQL', process.env.QUIRE_TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', 5432);
}

/**
 * Resolves to the service when a TCP connection to it opens within {@link CONNECT_TIMEOUT_MS}.
 * @throws Error naming the service and URL when it is absent and `process.env.CI` is set.
 */
async function requireService(name: string, url: string, defaultPort: number): Promise<ServiceInfo | null> {
  const parsed = new URL(url);
  const info: ServiceInfo = { url, host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || defaultPort) };
  const error = await tryConnect(info.host, info.port);
  if (!error) return info;
  const message = `${name} is not reachable at ${info.host}:${info.port} (${error})`;
  if (process.env.CI) throw new Error(`${message}; CI must run these tests against a real ${name}.`);
  console.warn(`Skipping tests that need ${name}: ${message}. Start ${name} to run them.`);
  return null;
}

function tryConnect(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (error: string | null) => {
      socket.destroy();
      resolve(error);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => finish('timed out'));
    socket.once('connect', () => finish(null));
    socket.once('error', (err) => finish(err.message));
  });
}
