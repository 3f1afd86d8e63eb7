// The load generator where wrk is not installed: autocannon, driven like bench/wrk/post.lua (same
// env, same one-line `BENCH_RESULT {json}` answer). It runs in Node, so it costs more CPU than wrk,
// but on its own core that only lowers the ceiling, not the server's CPU per request.
// Usage: node autocannon-load.js <url> <connections> <seconds>; env BENCH_BODY (file), BENCH_HEADERS (file).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const [url = '', connections = '1', seconds = '4'] = process.argv.slice(2);
const body = readFileSync(process.env.BENCH_BODY ?? '', 'utf8');
const headers: Record<string, string> = {};
for (const line of readFileSync(process.env.BENCH_HEADERS ?? '', 'utf8').split('\n')) {
  const match = /^([^:]+):\s*(.*)$/.exec(line);
  if (match) headers[match[1]!] = match[2]!;
}

// autocannon's own latency histogram counts whole milliseconds; the bench reports tenths of one,
// so each answer's time is kept here (in ms, as autocannon measures it from hrtime).
const latencies: number[] = [];
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const options = { url, method: 'POST' as const, body, headers, connections: Number(connections), duration: Number(seconds), timeout: 10 };
  const instance = autocannon(options, (error, finished) => (error ? reject(error) : resolve(finished)));
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
});

const sorted = Float64Array.from(latencies).sort();
const percentile = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
const summary = {
  requests: result['2xx'],
  durationUs: Math.round((result.finish.getTime() - result.start.getTime()) * 1000),
  bytes: result.throughput.total,
  p50Us: Math.round(percentile(0.5) * 1000),
  p99Us: Math.round(percentile(0.99) * 1000),
  maxUs: Math.round((sorted.at(-1) ?? 0) * 1000),
  meanUs: latencies.length === 0 ? 0 : (latencies.reduce((sum, value) => sum + value, 0) / latencies.length) * 1000,
  // autocannon counts timeouts among its errors; wrk keeps them apart.
  errors: { connect: result.errors - result.timeouts, read: 0, write: 0, status: result.non2xx, timeout: result.timeouts },
};
process.stdout.write(`BENCH_RESULT ${JSON.stringify(summary)}\n`);
