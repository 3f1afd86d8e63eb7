import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/gateway/resolve-options.js';
import { compilePipeline } from '../../src/pipeline/compile-pipeline.js';
import { chatCodec } from '../../src/protocols/chat-completions/index.js';
import { silentLogger } from '../../src/logger.js';
import type { Stage } from '../../src/pipeline/stage.js';

const description = readFileSync(join(import.meta.dirname, '../../src/pipeline/README.md'), 'utf8');

describe('src/pipeline/README.md', () => {
  it('should give the order the pipeline compiles, every feature on', () => {
    const order = /^\s*order: (.+)$/m
      .exec(description)?.[1]
      ?.split(' | ')
      .map((part) => part.split(' '));
    const resolved = resolveOptions({
      apiKeys: ['sk-order-test-0123456789'],
      logger: silentLogger,
      requestLog: { logger: silentLogger as never },
      limits: { keys: { options: { requestsPerMinute: 10 } } },
    });
    const own: Stage = { name: 'own' };
    const pipeline = compilePipeline(
      { services: resolved.stages, requestPolicy: resolved.requestPolicy, logger: silentLogger, userStages: [own] },
      { endpoint: 'generation', codec: chatCodec, acceptXApiKey: false, forwardedHeaders: [] },
    );
    const route = pipeline.routeOf(resolved.modelList[0]!).stages.map((stage) => stage.name);
    expect(order?.[0]).toEqual(pipeline.prelude.map((stage) => stage.name));
    // Users' stages go before `call` by default: the route's list ends with them.
    expect([...(order?.[0] ?? []), ...(order?.[1] ?? []), 'own']).toEqual(route);
    expect(order?.[2]).toEqual(['call']);
  });
});
