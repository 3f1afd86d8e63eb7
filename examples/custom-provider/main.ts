// Runs the custom provider end to end: `npx tsx examples/custom-provider/main.ts`.
// Starts the app on a free port, calls the `shout` model with the openai SDK (plain and streamed), and stops.
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { createApp } from './app.js';

const apiKey = 'sk-example-custom-provider';
const server = createApp(apiKey).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as AddressInfo;

try {
  const client = new OpenAI({ apiKey, baseURL: `http://127.0.0.1:${port}/v1` });
  const completion = await client.chat.completions.create({
    model: 'shout',
    messages: [{ role: 'user', content: 'hello from a custom provider' }],
  });
  console.log(`reply:    ${completion.choices[0]?.message.content}`);

  const stream = await client.chat.completions.create({
    model: 'shout',
    stream: true,
    messages: [{ role: 'user', content: 'streamed word by word' }],
  });
  const pieces: string[] = [];
  for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta.content ?? '');
  console.log(`streamed: ${JSON.stringify(pieces.filter(Boolean))}`);
} finally {
  server.close();
}
