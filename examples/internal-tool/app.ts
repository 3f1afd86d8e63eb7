// Embedding Switchyard in an internal service. In your own project: import { gateway, createMockProvider } from 'switchyard-gateway';
//
// The service has its own routes (/health, /api/summarize) and mounts the gateway under /llm,
// so other teams' tools reach the models at http://host/llm/v1 with their own keys — and the
// service's own code calls the same gateway with the openai SDK, like any other client.
import express from 'express';
import OpenAI from 'openai';
import { createMockProvider, gateway } from '../../src/index.js';

export interface InternalToolOptions {
  /** The key the service itself uses to call the gateway. */
  serviceKey: string;
  /** Keys other tools may use on /llm. */
  teamKeys: readonly string[];
  /** Where this service listens, e.g. http://127.0.0.1:3000; known once it is listening. */
  selfUrl: () => string;
}

/** A stand-in model that "summarises" by keeping the first sentence; in production, use { openai: { apiKey } }. */
const summarizer = createMockProvider({
  reply: (request) => {
    const last = request.messages.at(-1);
    const text = last?.role === 'user' ? last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ') : '';
    return `Summary: ${text.split(/(?<=[.!?])\s/)[0] ?? ''}`;
  },
});

export function createInternalTool(options: InternalToolOptions) {
  const app = express();
  app.get('/health', (_req, res) => res.json({ ok: true }));
  // The gateway reads its own bodies, so it goes before express.json().
  app.use(
    '/llm',
    gateway({
      apiKeys: [options.serviceKey, ...options.teamKeys],
      providers: { summarizer },
      models: [{ id: 'summarizer', provider: 'summarizer', aliases: ['default'] }],
    }),
  );
  app.use(express.json());

  app.post('/api/summarize', async (req, res) => {
    const text: unknown = req.body?.text;
    if (typeof text !== 'string' || text.trim() === '') {
      res.status(400).json({ error: "Send { text: '…' }." });
      return;
    }
    const llm = new OpenAI({ apiKey: options.serviceKey, baseURL: `${options.selfUrl()}/llm/v1` });
    const completion = await llm.chat.completions.create({
      model: 'default',
      messages: [
        { role: 'system', content: 'Summarise the text in one sentence.' },
        { role: 'user', content: text },
      ],
    });
    res.json({ summary: completion.choices[0]?.message.content ?? '' });
  });
  return app;
}
