// Starts the example host app: `npx tsx examples/mount-in-express/server.ts [--port 9000]`.
// (`npm start` runs the standalone server instead: src/server/cli.ts.)
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createApp } from './app.js';

const { values } = parseArgs({
  options: { port: { type: 'string', default: process.env.PORT ?? '8787' }, host: { type: 'string', default: '127.0.0.1' } },
});
const apiKey = process.env.SWITCHYARD_API_KEY ?? `sk-dev-${randomBytes(12).toString('hex')}`;

/** Why the server could not listen, in words: the port or host at fault and what to do. */
function listenFailure(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRINUSE')
    return `port ${values.port} is already in use (EADDRINUSE); stop what uses it, or pick another with --port`;
  if (error.code === 'EACCES') return `port ${values.port} needs more privileges (EACCES); pick one above 1023 with --port`;
  if (error.code === 'EADDRNOTAVAIL')
    return `host '${values.host}' is not an address of this machine (EADDRNOTAVAIL); try --host 127.0.0.1`;
  return error.message;
}

// Express 5 calls back with the error when the server cannot listen (a port in use): report it and exit 1.
const server = createApp(apiKey).listen(Number(values.port), values.host, (error?: Error) => {
  if (error) {
    console.error(`Cannot listen on ${values.host}:${values.port}: ${listenFailure(error)}.`);
    process.exit(1);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : values.port;
  const root = `http://${values.host}:${port}`;
  console.log(`Switchyard is listening.
  API root (Anthropic clients, ANTHROPIC_BASE_URL): ${root}
  OpenAI base URL:                                   ${root}/v1
  API key:                                           ${apiKey}
  Model:                                             mock

  curl ${root}/v1/chat/completions -H "Authorization: Bearer ${apiKey}" -H "Content-Type: application/json" \\
    -d '{"model":"mock","messages":[{"role":"user","content":"Hello"}]}'`);
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
