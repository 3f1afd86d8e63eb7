import { describe, expect, it } from 'vitest';
import { createGatewayMetrics } from '../../src/observability/gateway-metrics.js';
import { upstreamOutcomeOf } from '../../src/observability/upstream-observer.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';

const idle = { open: () => ({ requests: 0, streams: 0 }) };

const recordFor = (keyId: string | undefined, overrides: Partial<RequestRecord> = {}): RequestRecord => ({
  requestId: 'req_1',
  caller: keyId === undefined ? undefined : { keyId },
  protocol: 'chat',
  model: 'm',
  provider: 'p',
  upstreamModel: 'u',
  stream: false,
  status: 200,
  errorCode: undefined,
  usage: { inputTokens: 10, outputTokens: 5 },
  upstream: undefined,
  startedAt: 0,
  durationMs: 300,
  attempts: 1,
  firstOutputMs: undefined,
  userAgent: undefined,
  cut: undefined,
  ...overrides,
});

describe('createGatewayMetrics', () => {
  it('should count upstream attempts and retries by deployment and outcome, as the router reports them', async () => {
    const metrics = createGatewayMetrics(idle);
    metrics.upstreamAttempt({ deployment: 'openai-east/gpt', outcome: 'rate_limited', retry: false });
    metrics.upstreamAttempt({ deployment: 'openai-west/gpt', outcome: 'ok', retry: true });
    metrics.upstreamAttempt({ deployment: 'openai-west/gpt', outcome: 'ok', retry: true });
    const text = await metrics.registry.metrics();
    expect(text).toContain('switchyard_upstream_attempts_total{deployment="openai-east/gpt",outcome="rate_limited"} 1');
    expect(text).toContain('switchyard_upstream_attempts_total{deployment="openai-west/gpt",outcome="ok"} 2');
    expect(text).toContain('switchyard_upstream_retries_total{deployment="openai-west/gpt"} 2');
    expect(text).not.toContain('switchyard_upstream_retries_total{deployment="openai-east/gpt"}');
  });

  it('should count each request once however often it is scraped, with labels in any order of arrival', async () => {
    const metrics = createGatewayMetrics(idle);
    metrics.stage.record(recordFor('k1'));
    metrics.stage.record(recordFor('k1', { protocol: 'messages', status: 429, usage: undefined }));
    const first = await metrics.registry.metrics();
    expect(first).toContain('switchyard_requests_total{protocol="chat",model="m",status="200"} 1');
    expect(first).toContain('switchyard_requests_total{protocol="messages",model="m",status="429"} 1');
    metrics.stage.record(recordFor('k1'));
    await metrics.registry.metrics();
    const third = await metrics.registry.metrics();
    expect(third).toContain('switchyard_requests_total{protocol="chat",model="m",status="200"} 2');
    expect(third).toContain('switchyard_tokens_total{model="m",type="input"} 20');
    expect(third).toContain('switchyard_tokens_total{model="m",type="output"} 10');
    const json = await metrics.registry.getMetricsAsJSON();
    expect(json.find((metric) => metric.name === 'switchyard_requests_total')?.values).toHaveLength(2);
  });

  it('should show a deployment in cooldown as 1 until it is back', async () => {
    const metrics = createGatewayMetrics(idle);
    metrics.cooldown('anthropic/claude', true);
    expect(await metrics.registry.metrics()).toContain('switchyard_deployment_cooldown{deployment="anthropic/claude"} 1');
    metrics.cooldown('anthropic/claude', false);
    expect(await metrics.registry.metrics()).toContain('switchyard_deployment_cooldown{deployment="anthropic/claude"} 0');
  });

  it('should label tokens by key only when asked, and bound the number of keys', async () => {
    const plain = createGatewayMetrics(idle);
    plain.stage.record(recordFor('key_a'));
    expect(await plain.registry.metrics()).toContain('switchyard_tokens_total{model="m",type="input"} 10');

    const byKey = createGatewayMetrics(idle, { keyLabels: 2 });
    for (const key of ['key_a', 'key_b', 'key_c', 'key_d', 'key_a']) byKey.stage.record(recordFor(key));
    byKey.stage.record(recordFor(undefined));
    const text = await byKey.registry.metrics();
    expect(text).toContain('switchyard_tokens_total{model="m",key="key_a",type="input"} 20');
    expect(text).toContain('switchyard_tokens_total{model="m",key="key_b",type="input"} 10');
    expect(text).toContain('switchyard_tokens_total{model="m",key="other",type="input"} 20');
    expect(text).toContain('switchyard_tokens_total{model="m",key="none",type="input"} 10');
    expect(text).not.toContain('key_c');
  });

  it('should add to the cost only what was priced', async () => {
    const metrics = createGatewayMetrics({
      ...idle,
      price: (record) => (record.model === 'm' ? { nanoUsd: 1_500_000_000, priceVersion: 'v' } : undefined),
    });
    metrics.stage.record(recordFor(undefined));
    metrics.stage.record(recordFor(undefined, { model: 'unpriced' }));
    const text = await metrics.registry.metrics();
    expect(text).toContain('switchyard_cost_usd_total{model="m"} 1.5');
    expect(text).not.toContain('switchyard_cost_usd_total{model="unpriced"}');
  });

  it('should read the limits and ledger counters when scraped', async () => {
    let refused = 3;
    const metrics = createGatewayMetrics({
      open: () => ({ requests: 4, streams: 2 }),
      limits: () => ({ refused, storeFailures: 1, waiting: 5 }),
      ledger: () => ({ written: 100, waiting: 7, failedWrites: 2 }),
    });
    let text = await metrics.registry.metrics();
    expect(text).toContain('switchyard_limit_rejections_total 3');
    expect(text).toContain('switchyard_limit_store_failures_total 1');
    expect(text).toContain('switchyard_limit_waiting_requests 5');
    expect(text).toContain('switchyard_ledger_backlog_rows 7');
    expect(text).toContain('switchyard_ledger_rows_written_total 100');
    expect(text).toContain('switchyard_ledger_failed_writes_total 2');
    expect(text).toContain('switchyard_open_requests 4');
    expect(text).toContain('switchyard_open_streams 2');
    refused = 9;
    text = await metrics.registry.metrics();
    expect(text).toContain('switchyard_limit_rejections_total 9');
  });

  it('should keep two gateways apart: each has its own registry', async () => {
    const first = createGatewayMetrics(idle);
    const second = createGatewayMetrics(idle);
    first.stage.record(recordFor(undefined));
    expect(await first.registry.metrics()).toContain('switchyard_requests_total{protocol="chat",model="m",status="200"} 1');
    expect(await second.registry.metrics()).not.toContain('switchyard_requests_total{');
  });
});

describe('upstreamOutcomeOf', () => {
  it('should name each failure by a bounded outcome', () => {
    expect([429, 503, 529, 500, 502, 504, 408, 400, undefined].map((status) => upstreamOutcomeOf(status))).toEqual([
      'rate_limited',
      'overloaded',
      'overloaded',
      'server_error',
      'server_error',
      'timeout',
      'timeout',
      'client_error',
      'connect_error',
    ]);
    expect(upstreamOutcomeOf(undefined, 'timeout')).toBe('timeout');
  });
});
