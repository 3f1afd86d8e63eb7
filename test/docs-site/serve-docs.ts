import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { switchyardDocs } from '../../src/docs-site/docs-handler.js';
import type { DocsOptions } from '../../src/docs-site/docs-options.js';
import { silentLogger } from '../../src/logger.js';

/** The fixture guide (test/fixtures/docs): an index, pages in a subfolder, an unlisted page, an image. */
export const FIXTURE_DOCS = join(import.meta.dirname, '../fixtures/docs');

export interface ServedDocs {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** The guide alone at /docs on a plain node:http server (the fixture guide unless `root` says otherwise). */
export async function serveDocs(options: DocsOptions = {}): Promise<ServedDocs> {
  const docs = switchyardDocs({ root: FIXTURE_DOCS, basePath: '/docs', logger: silentLogger, ...options });
  const server: Server = createServer((req, res) => docs(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
