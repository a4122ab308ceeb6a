/**
 * One process of the usage race test (usage.test.ts): opens the database at argv[2] and runs
 * argv[5] metered transactions at once for organization argv[3] with an enterprise build limit of
 * argv[4], then prints the outcomes (`ok` or the error code) as one JSON array line.
 */
import { openDb } from '../../src/db/client';
import { consumeUsage } from '../../src/services/usage';

const [databaseUrl, orgId, limit, attempts] = process.argv.slice(2) as [string, string, string, string];
const db = await openDb(databaseUrl);
const config = { enterpriseMonthlyBuilds: Number(limit), enterpriseMonthlyAnswers: 1 };
const outcomes = await Promise.all(
  Array.from({ length: Number(attempts) }, () =>
    db.prisma
      .$transaction((tx) => consumeUsage(tx, config, { id: orgId, plan: 'enterprise' }, 'builds'))
      .then(() => 'ok', (err: { code?: string; message?: string }) => err.code ?? String(err.message)),
  ),
);
await db.close();
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
