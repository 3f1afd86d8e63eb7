import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, readBanner, spawnCli, type RunningProcess } from './spawn-cli.js';

// The server writes its request lines to stdout through pino's buffered destination (one write
// for many lines): they must still show up promptly when traffic is light, and none may be lost
// when the server stops.

const started: RunningProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.stop(2_000)));
});

function chat(openAIBaseURL: string, key: string, content: string) {
  return fetch(`${openAIBaseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock', messages: [{ role: 'user', content }] }),
  });
}

const requestLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; requestId?: string; status?: number })
    .filter((line) => line.msg === 'request');

describe('request lines on stdout', () => {
  it("should print a lone request's line within a moment, though lines are written in batches", async () => {
    const child = spawnCli(['--port', '0'], cleanEnv({ SWITCHYARD_API_KEY: 'sk-gw-stdout' }));
    started.push(child);
    const { openAIBaseURL, key } = await readBanner(child);
    const answer = await chat(openAIBaseURL, key, 'Hello');
    expect(answer.status).toBe(200);
    const requestId = answer.headers.get('x-request-id');
    await child.waitForOutput(/"msg":"request"/, 2_000);
    expect(requestLines(child.stdout())).toEqual([expect.objectContaining({ requestId, status: 200 })]);
  });

  it('should have written every line when it stops right after a burst of requests', async () => {
    const child = spawnCli(['--port', '0'], cleanEnv({ SWITCHYARD_API_KEY: 'sk-gw-stdout' }));
    const { openAIBaseURL, key } = await readBanner(child);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => chat(openAIBaseURL, key, `Hello ${index}`)));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    // Stopped at once: what the buffer holds is written on the way out.
    expect(await child.stop(10_000)).toMatchObject({ code: 0 });
    expect(
      requestLines(child.stdout())
        .map((line) => line.requestId)
        .sort(),
    ).toEqual(ids.sort());
  });
});
