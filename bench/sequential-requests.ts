// Requests one after the other on each of a few keep-alive connections, each answer read to its end
// and checked: the client of the instruction counts (it runs in the bench process, not under valgrind).
import { Agent, request } from 'node:http';

export interface RequestPlan {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Text every answer must contain (the protocol's last event, or its object type). */
  expected: string;
}

/** Sends `count` requests, `connections` at a time (each connection waits for its answer before the next). */
export async function sendSequentially(plan: RequestPlan, count: number, connections: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(plan.url);
  const headers = { ...plan.headers, 'content-length': String(Buffer.byteLength(plan.body)) };
  let left = count;
  const loop = async () => {
    while (left > 0) {
      left -= 1;
      const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const outgoing = request(
          { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers, timeout: 120_000 },
          (answer) => {
            let text = '';
            answer.setEncoding('utf8');
            answer.on('data', (chunk: string) => (text += chunk));
            answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text }));
            answer.on('error', reject);
          },
        );
        outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 120 s')));
        outgoing.on('error', reject);
        outgoing.end(plan.body);
      });
      if (status !== 200 || !text.includes(plan.expected)) throw new Error(`${plan.url} answered ${status}: ${text.slice(0, 300)}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(connections, count) }, loop));
  } finally {
    agent.destroy();
  }
}
