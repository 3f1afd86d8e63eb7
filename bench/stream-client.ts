// Streaming load that wrk cannot measure. Prints `BENCH_RESULT {json}` lines for run.ts.
//   node stream-client.js ttfb  <url>[,<url>…] <path> <count>     sequential streams, to each url in turn; time to first
//                                                                  body byte, per url (side by side: a slow spell hits all)
//   node stream-client.js paced <url> <path> <count> <concurrency> streams to the end; CPU is read around it
//   node stream-client.js open  <url> <path> <count>              opens streams, reports when all are flowing,
//                                                                  holds them until SIGTERM
import { Agent, request, type IncomingMessage } from 'node:http';
import { endpointOf, requestBody, requestHeaders, type BenchPath } from './bodies.js';

const [mode = 'ttfb', base = '', pathArg = 'chat', countArg = '100', concurrencyArg = '1'] = process.argv.slice(2);
const path = pathArg as BenchPath;
const count = Number(countArg);
const concurrency = Number(concurrencyArg);
const targets = base.split(',').map((url) => new URL(url));
const body = Buffer.from(requestBody(path, true));
const headers = { ...requestHeaders(path), 'content-length': String(body.length) };
const endpoint = endpointOf[path];
const agent = new Agent({ keepAlive: true, maxSockets: mode === 'open' ? Infinity : concurrency });

interface Started {
  /** Resolves with the time from sending to the first body byte, in ms. */
  firstByte: Promise<number>;
  /** Resolves when the stream ends (with its byte count). */
  done: Promise<number>;
  response: Promise<IncomingMessage>;
}

function startStream(target = targets[0]!): Started {
  const sent = process.hrtime.bigint();
  let resolveFirst: (ms: number) => void = () => undefined;
  let rejectFirst: (error: Error) => void = () => undefined;
  const firstByte = new Promise<number>((resolve, reject) => {
    resolveFirst = resolve;
    rejectFirst = reject;
  });
  let resolveResponse: (response: IncomingMessage) => void = () => undefined;
  const response = new Promise<IncomingMessage>((resolve) => (resolveResponse = resolve));
  const done = new Promise<number>((resolve, rejectDone) => {
    const reject = (error: Error) => {
      rejectFirst(error);
      rejectDone(error);
    };
    const outbound = request({ host: target.hostname, port: target.port, method: 'POST', path: endpoint, headers, agent }, (answer) => {
      resolveResponse(answer);
      if (answer.statusCode !== 200) {
        reject(new Error(`status ${answer.statusCode}`));
        answer.resume();
        return;
      }
      let bytes = 0;
      answer.on('data', (part: Buffer) => {
        if (bytes === 0) resolveFirst(Number(process.hrtime.bigint() - sent) / 1e6);
        bytes += part.length;
      });
      answer.on('end', () => resolve(bytes));
      answer.on('error', reject);
    });
    outbound.on('error', reject);
    outbound.end(body);
  });
  done.catch(() => undefined);
  firstByte.catch(() => undefined);
  return { firstByte, done, response };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const report = (result: object) => process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);

async function measureTtfb(): Promise<void> {
  const times: number[][] = targets.map(() => []);
  for (let index = 0; index < count; index++) {
    for (const [which, target] of targets.entries()) {
      const stream = startStream(target);
      const [first] = await Promise.all([stream.firstByte, stream.done]);
      times[which]!.push(first);
    }
  }
  for (const sorted of times) sorted.sort((a, b) => a - b);
  report({ streams: count, p50Ms: times.map((sorted) => percentile(sorted, 50)), p99Ms: times.map((sorted) => percentile(sorted, 99)) });
}

async function runPaced(): Promise<void> {
  let next = 0;
  let bytes = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < count) {
      next++;
      bytes += await startStream().done;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  report({ streams: count, bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
}

async function holdOpen(): Promise<void> {
  const streams: Started[] = [];
  let flowing = 0;
  // Opened in batches, so the listen backlog never overflows; a server that cannot hold them all
  // (a connection limit upstream) is reported after a while instead of waited for.
  const deadline = Date.now() + 20_000;
  for (let index = 0; index < count && Date.now() < deadline; index += 100) {
    const batch = Array.from({ length: Math.min(100, count - index) }, () => startStream());
    streams.push(...batch);
    const waited = await Promise.race([
      Promise.all(batch.map((stream) => stream.firstByte)).then(() => true),
      new Promise<boolean>((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()), false)),
    ]);
    if (!waited) break;
    flowing += batch.length;
  }
  report({ open: flowing });
  process.on('SIGTERM', () => {
    for (const stream of streams) void stream.response.then((answer) => answer.destroy());
    agent.destroy();
    setTimeout(() => process.exit(0), 200);
  });
}

const modes: Record<string, () => Promise<void>> = { ttfb: measureTtfb, paced: runPaced, open: holdOpen };
const run = modes[mode];
if (!run) throw new Error(`unknown mode ${mode}`);
run().catch((error: unknown) => {
  process.stderr.write(`stream-client: ${String(error)}\n`);
  process.exit(1);
});
