import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gateway, type Gateway } from '../../src/gateway/gateway.js';
import { switchyardConsole } from '../../src/console/console-handler.js';
import type { ConsoleOptions } from '../../src/console/console-options.js';
import { silentLogger } from '../../src/logger.js';
import type { StorageEngine } from '../../src/storage/open-database.js';
import { testDatabase, type TestDatabase } from './test-database.js';

/** A browser without a browser: keeps the cookies it was given, reads each form's CSRF token. */
export class ConsoleVisitor {
  readonly cookies = new Map<string, string>();
  lastSetCookie: string[] = [];
  constructor(readonly origin: string) {}

  async get(path: string, headers: Record<string, string> = {}) {
    return this.send('GET', path, undefined, headers);
  }

  /** The form's CSRF token on the page at `from` (it also gives this visitor its pre-session cookie). */
  async csrf(from: string, headers: Record<string, string> = {}): Promise<string> {
    return /name="csrf" value="([^"]+)"/.exec((await this.get(from, headers)).text)?.[1] ?? '';
  }

  /** Posts a form with the CSRF token of the page at `from` (default: the same path). */
  async post(path: string, form: Record<string, string>, from = path, headers: Record<string, string> = {}) {
    const csrf = await this.csrf(from, headers);
    return this.postWith(csrf, path, form, headers);
  }

  /** Posts a form with a token read before (to send many at once). */
  async postWith(csrf: string, path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.send('POST', path, new URLSearchParams({ csrf, ...form }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      origin: this.origin,
      ...headers,
    });
  }

  async send(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.origin}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
      ...(body === undefined ? {} : { body }),
    });
    this.lastSetCookie = response.headers.getSetCookie();
    for (const line of this.lastSetCookie) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (/Max-Age=0/.test(line)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return { status: response.status, text: await response.text(), location: response.headers.get('location') };
  }
}

export interface RunningConsole {
  origin: string;
  api: Gateway;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The console alone on a plain node:http server, over a fresh database of `engine`. */
export async function startConsole(engine: StorageEngine, options: Omit<ConsoleOptions, 'gateway'> = {}): Promise<RunningConsole> {
  const database = testDatabase(engine);
  const api = gateway({ database: await database.open(), logger: silentLogger });
  const server: Server = createServer(switchyardConsole({ gateway: api, logger: silentLogger, ...options }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    api,
    database,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await api.close();
      await database.remove();
    },
  };
}
