// How long one unusual-spend check takes against a ledger with a day of history: run with
// `npx tsx bench/unusual-spend-check.ts [sqlite|postgres] [keys] [rows per key per hour]`.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/storage/open-database.js';
import { findAbnormalSpend } from '../src/usage/abnormal-spend.js';
import { flagState } from '../src/usage/unusual-spend-flags.js';

const engine = process.argv[2] ?? 'sqlite';
const keys = Number(process.argv[3] ?? 1000);
const perHour = Number(process.argv[4] ?? 10);
const HOUR = 3_600_000;
const schema = `bench_${randomBytes(4).toString('hex')}`;
const database = await openDatabase(
  engine === 'postgres'
    ? { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', schema }
    : { url: join(tmpdir(), `unusual-spend-${randomBytes(4).toString('hex')}.db`) },
);
const now = Date.now();
const keyIds = Array.from({ length: keys }, (_, n) => `key_${n}`);
let sequence = 0;
for (const keyId of keyIds) {
  const rows = [];
  for (let hour = 0; hour < 25; hour += 1)
    for (let k = 0; k < perHour; k += 1)
      rows.push({
        request_id: `req_${(sequence += 1)}`,
        attempt: 1,
        at: now - hour * HOUR - k * 1000,
        key_public_id: keyId,
        protocol: 'chat',
        model: 'm',
        stream: 0,
        status: 200,
        billing: 'complete',
        input_tokens: 10,
        output_tokens: 10,
        cost_nano_usd: 1_000_000,
      });
  await database.db.insertInto('usage_ledger').values(rows).execute();
}
const time = async (what: string, run: () => Promise<unknown>) => {
  const times: number[] = [];
  for (let n = 0; n < 7; n += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`${engine} ${keys} keys × ${perHour}/h (${sequence} rows): ${what}: median ${times[3]!.toFixed(1)} ms`);
};
await time('check of 10 keys that spent', async () => {
  await flagState(database.db);
  await findAbnormalSpend(database.db, now, undefined, keyIds.slice(0, 10));
});
await time('check of 100 keys that spent', async () => {
  await flagState(database.db);
  await findAbnormalSpend(database.db, now, undefined, keyIds.slice(0, 100));
});
await time(`check of all ${keys} keys`, async () => {
  await flagState(database.db);
  await findAbnormalSpend(database.db, now, undefined, keyIds);
});
if (engine === 'postgres') await database.db.schema.dropSchema(schema).cascade().execute();
await database.close();
