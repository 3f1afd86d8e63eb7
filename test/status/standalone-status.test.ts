import { describe, expect, it } from 'vitest';
import { gateway } from '../../src/gateway/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { statusPage } from '../../src/status/status-page.js';
import { configFileSchema, splitConfigFile } from '../../src/server/config-schema.js';
import { DEFAULT_SERVER_OPTIONS, startServer, type RunningServer } from '../../src/server/start-server.js';
import type { StatusReport } from '../../src/status/status-report.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();

async function start(status?: false): Promise<RunningServer> {
  const running = await startServer(
    {
      database: scratch.file('db'),
      apiKeys: ['sk-standalone-status-0123456789'],
      logger: silentLogger,
      ledger: { outbox: scratch.file('outbox') },
    },
    { ...DEFAULT_SERVER_OPTIONS, port: 0, logLevel: undefined, ...(status === undefined ? { status: { probe: false } } : { status }) },
  );
  scratch.later(() => running.close().done);
  return running;
}

describe('the status page in the standalone server', () => {
  it('should serve /status and /status.json without a key, beside the API', async () => {
    const running = await start();
    const page = await fetch(`${running.root}/status`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Service status</h1>');
    const report = (await (await fetch(`${running.root}/status.json`)).json()) as StatusReport;
    expect(report.models.map((model) => model.id)).toEqual(['mock']);
    expect(report.probe.enabled).toBe(false);
    // The API still needs its key.
    expect((await fetch(`${running.openAIBaseURL}/models`)).status).toBe(401);
  });

  it('should leave /status to the gateway (a 404) with status: false', async () => {
    const running = await start(false);
    expect((await fetch(`${running.root}/status`)).status).toBe(404);
  });

  it('should say there are no figures without a database, and not probe', async () => {
    const api = gateway({ logger: silentLogger });
    const page = statusPage(api);
    scratch.later(() => page.close());
    const report = await page.report();
    expect(report).toMatchObject({ ledger: false, probe: { enabled: false, intervalMs: null } });
    expect(report.models.map((model) => [model.id, model.state, model.windows.week.successRate])).toEqual([['mock', 'no-traffic', null]]);
    expect(() => statusPage({})).toThrow('statusPage() takes the gateway that gateway() returned.');
  });

  it('should take server.status in the config file', () => {
    const file = configFileSchema.parse({ server: { status: { cacheMs: 2000, probe: { intervalMs: 600_000, maxOutputTokens: 16 } } } });
    expect(splitConfigFile(file).server.status).toEqual({ cacheMs: 2000, probe: { intervalMs: 600_000, maxOutputTokens: 16 } });
    expect(splitConfigFile(configFileSchema.parse({ server: { status: false } })).server.status).toBe(false);
    expect(configFileSchema.safeParse({ server: { status: { probe: { every: 5 } } } }).success).toBe(false);
  });
});
