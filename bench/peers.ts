// Other gateways measured beside Switchyard by `npm run bench -- --compare`: Portkey's AI gateway
// and claude-code-router, each installed from the npm registry at a pinned version into
// bench/.peers/ (ignored by git) the first time it is needed, and pointed at the same mock upstream.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UPSTREAM_MODEL, type BenchPath } from './bodies.js';

/** How to start one peer on `port`, and what its requests need besides the path's own. */
export interface PeerLaunch {
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Extra request headers (Portkey reads its routing from headers). */
  headers: Record<string, string>;
  /** The `model` the body names (a peer that forwards it verbatim gets the upstream's id). */
  model: string;
}

export interface Peer {
  name: string;
  /** npm package and version, pinned so runs compare like with like. */
  spec: string;
  /** The entry script inside the package. */
  entry: string;
  /** The bench paths it serves; the others it cannot (Portkey has no Messages → Chat translation). */
  paths: readonly BenchPath[];
  /** False when it cannot stream from the mock upstream (then only its JSON load is measured). */
  streams: boolean;
  launch(upstreamUrl: string, port: number, path: BenchPath, home: string): PeerLaunch;
}

export const peers: readonly Peer[] = [
  {
    name: 'Portkey',
    spec: '@portkey-ai/gateway@1.15.2',
    entry: 'node_modules/@portkey-ai/gateway/build/start-server.js',
    paths: ['chat', 'responses', 'anthropic'],
    // 1.15.2 answers every streamed request here with a 500 ("TypeError: immutable" while it adds
    // its headers to the upstream's response): every protocol on Node 20, the Chat stream on Node 24.
    streams: false,
    launch: (upstreamUrl, port, path) => ({
      args: [`--port=${port}`, '--headless'],
      env: {},
      headers: { 'x-portkey-provider': path === 'anthropic' ? 'anthropic' : 'openai', 'x-portkey-custom-host': `${upstreamUrl}/v1` },
      model: UPSTREAM_MODEL,
    }),
  },
  {
    name: 'claude-code-router',
    // 2.x runs on Node 20 (3.x needs 22); 1.0.73 exits when a client drops a stream mid-way.
    spec: '@musistudio/claude-code-router@2.0.0',
    entry: 'node_modules/@musistudio/claude-code-router/dist/cli.js',
    paths: ['messages'],
    streams: true,
    launch: (upstreamUrl, port, _path, home) => {
      // It reads ~/.claude-code-router/config.json; a home of its own keeps the user's untouched.
      const configDir = join(home, '.claude-code-router');
      mkdirSync(configDir, { recursive: true });
      const config = {
        PORT: port,
        HOST: '127.0.0.1',
        LOG: false,
        NON_INTERACTIVE_MODE: true,
        Providers: [{ name: 'mock', api_base_url: `${upstreamUrl}/v1/chat/completions`, api_key: 'sk-bench', models: [UPSTREAM_MODEL] }],
        Router: { default: `mock,${UPSTREAM_MODEL}` },
      };
      writeFileSync(join(configDir, 'config.json'), JSON.stringify(config));
      return { args: ['start'], env: { HOME: home }, headers: {}, model: 'claude-sonnet-4-5' };
    },
  },
];

/** Installs the peer into `dir` unless it is there; returns the entry script's path. */
export function installPeer(peer: Peer, dir: string): string {
  const prefix = join(dir, peer.name.toLowerCase());
  const entry = join(prefix, peer.entry);
  if (!existsSync(entry)) {
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: `bench-peer-${peer.name.toLowerCase()}`, private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', peer.spec], {
      cwd: prefix,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return entry;
}
