import { describe, expect, it } from 'vitest';
import { newKey, registered, serveWithConsole } from '../helpers/console-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const HOUR = 3_600_000;
const scratch = useScratch();

describe('unusual spend in the console', () => {
  it('should badge a key (and its account) whose last hour is 10× its average, show its last requests, and leave a steady key alone', async () => {
    const one = await serveWithConsole(scratch, { database: scratch.database('sqlite'), models: [{ id: 'mock', provider: 'mock' }] });
    const admin = await registered(one.origin, 'admin@example.com');
    const member = await registered(one.origin, 'member@example.com');
    await newKey(member, 'jumper');
    await newKey(member, 'steady');
    const db = await one.api.storage!();
    const ids = Object.fromEntries(
      (await db.selectFrom('api_keys').select(['public_id', 'name']).execute()).map((key) => [key.name, key.public_id]),
    );
    expect(Object.keys(ids).sort()).toEqual(['jumper', 'steady']);
    const now = Date.now();
    let n = 0;
    const row = (keyId: string, at: number, usd: number) => ({
      request_id: `req_${(n += 1)}`,
      attempt: 1,
      at,
      key_public_id: keyId,
      protocol: 'chat',
      model: 'mock',
      stream: 0,
      status: 200,
      billing: 'complete',
      input_tokens: 5,
      output_tokens: 5,
      cost_nano_usd: Math.round(usd * 1e9),
    });
    const rows = [];
    for (let hour = 1; hour <= 24; hour += 1)
      rows.push(row(ids.jumper!, now - (hour + 0.5) * HOUR, 0.2), row(ids.steady!, now - (hour + 0.5) * HOUR, 0.2));
    for (let k = 0; k < 10; k += 1) rows.push(row(ids.jumper!, now - (k + 1) * 60_000, 0.2));
    rows.push(row(ids.steady!, now - 60_000, 0.2));
    await db.insertInto('usage_ledger').values(rows).execute();

    const keys = (await member.get('/console/keys')).text;
    expect(keys.match(/unusual spend/g)).toHaveLength(1);
    expect(keys).toMatch(new RegExp(`/keys/${ids.jumper}#recent" title="\\$2\\.000000 in the last hour`));
    const page = (await member.get(`/console/keys/${ids.jumper}`)).text;
    expect(page).toContain('id="unusual-spend"');
    expect(page.match(/<code>req_\d+<\/code>/g)).toHaveLength(20);
    expect((await member.get(`/console/keys/${ids.steady}`)).text).not.toContain('id="unusual-spend"');
    expect((await admin.get('/console/users')).text).toMatch(/member@example.com <a class="badge"[^>]*>unusual spend/);
  });
});
