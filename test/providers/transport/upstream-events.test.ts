import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/canonical/index.js';
import { createChatStreamDecoder } from '../../../src/protocols/chat-completions/index.js';
import { RequestAbort } from '../../../src/providers/transport/cancellation.js';
import { createUpstream } from '../../../src/providers/transport/upstream.js';
import { UpstreamEvents } from '../../../src/providers/transport/upstream-events.js';

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const whole = `${chunk({ role: 'assistant', content: '' }) + chunk({ content: 'Hel' }) + chunk({ content: 'lo' }) + chunk({}, 'stop')}data: [DONE]\n\n`;

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

/** A Chat upstream on loopback that answers each call with `write(res)`; counts calls and connections. */
async function serve(write: (res: import('node:http').ServerResponse) => void) {
  const seen = { calls: 0, connections: 0 };
  server = createServer((req, res) => {
    seen.calls++;
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    write(res);
  });
  server.on('connection', () => seen.connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const upstream = createUpstream({
    name: 'test',
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    headers: {},
    parseError: (status) => new GatewayError({ kind: 'upstream', code: 'UPSTREAM_ERROR', status, message: 'failed' }),
  });
  const open = () => upstream.postSse({ path: '/chat/completions', body: {}, signal: new RequestAbort() });
  return { seen, upstream, events: () => new UpstreamEvents(open, createChatStreamDecoder()) };
}

describe('UpstreamEvents', () => {
  it("should call the upstream only when first read, and hand over one read's events as one batch", async () => {
    const { seen, events, upstream } = await serve((res) => res.end(whole));
    const stream = events();
    expect(seen.calls).toBe(0);
    const batch = await stream.nextBatch();
    expect(seen.calls).toBe(1);
    expect(batch?.map((event) => event.type)).toEqual(['start', 'text-start', 'text-delta', 'text-delta', 'text-end', 'finish']);
    expect(await stream.nextBatch()).toBeUndefined();
    await upstream.close();
  });

  it('should reuse the connection after a finished stream', async () => {
    const { seen, events, upstream } = await serve((res) => res.end(whole));
    for (let call = 0; call < 3; call++) {
      const stream = events();
      while ((await stream.nextBatch()) !== undefined);
      // The body's end reaches the pool just after the finish: give it the moment it takes.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen.calls).toBe(3);
    expect(seen.connections).toBe(1);
    await upstream.close();
  });

  it('should end with an error event when the upstream closes before the finish', async () => {
    const { events, upstream } = await serve((res) => res.end(chunk({ role: 'assistant', content: 'Hi' })));
    const all = [];
    for await (const event of events()) all.push(event);
    expect(all.at(-1)).toMatchObject({ type: 'error' });
    expect(all.some((event) => event.type === 'text-delta')).toBe(true);
    await upstream.close();
  });

  it('should close the upstream request when stopped early', async () => {
    let closed = false;
    const { events, upstream } = await serve((res) => {
      res.write(chunk({ role: 'assistant', content: 'Hi' }));
      res.on('close', () => (closed = true));
    });
    const stream = events();
    expect((await stream.nextBatch())?.length).toBeGreaterThan(0);
    await stream.stop();
    await expect.poll(() => closed).toBe(true);
    expect(await stream.nextBatch()).toBeUndefined();
    await upstream.close();
  });
});
