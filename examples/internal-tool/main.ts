// Runs the internal tool once: `npx tsx examples/internal-tool/main.ts`.
// Starts the service on a free port, calls its own /api/summarize (which calls the gateway under
// /llm), lists the gateway's models as another team would, and stops.
import type { AddressInfo } from 'node:net';
import { createInternalTool } from './app.js';

let selfUrl = '';
const app = createInternalTool({ serviceKey: 'sk-internal-service', teamKeys: ['sk-team-data'], selfUrl: () => selfUrl });
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
selfUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

try {
  const summary = await fetch(`${selfUrl}/api/summarize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'The deploy finished at noon. Nothing else happened. Lunch was late.' }),
  });
  console.log(`summary: ${JSON.stringify(await summary.json())}`);

  const models = await fetch(`${selfUrl}/llm/v1/models`, { headers: { authorization: 'Bearer sk-team-data' } });
  const list = (await models.json()) as { data: Array<{ id: string }> };
  console.log(`models:  ${list.data.map((model) => model.id).join(', ')}`);
} finally {
  server.closeAllConnections();
  server.close();
}
