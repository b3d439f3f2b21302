// Finds out once whether PostgreSQL answers at the test URL; workers read the result from the environment.
// With ANVIL_TEST_REQUIRE_PG=1 (CI) a missing PostgreSQL fails the run instead of skipping its half.
import pg from 'pg';

export default async function globalSetup() {
  const url = process.env.ANVIL_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  process.env.ANVIL_TEST_PG_URL = url;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    process.env.ANVIL_TEST_PG_AVAILABLE = '1';
  } catch (e) {
    process.env.ANVIL_TEST_PG_AVAILABLE = '0';
    if (process.env.ANVIL_TEST_REQUIRE_PG === '1') throw new Error(`PostgreSQL is required but does not answer at ${url}: ${e.message}`);
    console.warn(`\nPostgreSQL does not answer at ${url}: its tests are skipped.\n`);
  } finally {
    await client.end().catch(() => {});
  }
}
