import express from 'express';
import { gateway } from './src/index.js';
const app = express();
app.use((req, res, next) => {
  const started = Date.now();
  res.on('finish', () => console.log(`${req.method} ${req.originalUrl} -> ${res.statusCode} ${Date.now() - started}ms ${req.headers['anthropic-version'] ?? ''} ${req.headers['anthropic-beta'] ?? ''}`));
  next();
});
app.use(gateway({ apiKeys: ['sk-local'], models: [{ id: 'mock', provider: 'mock' }] }));
app.listen(8787, '127.0.0.1', () => console.log('up'));
