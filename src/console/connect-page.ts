import type { StoredKey } from '../access/stored-keys.js';
import { html, type Html } from './html.js';
import { layout, type PageContext } from './layout.js';

export interface ConnectPageState {
  /** The API root as clients reach it (`http://host:8787`, `https://example.com/llm`). */
  apiRoot: string;
  /** The user's live keys, to fill the snippets with one's public id. */
  keys: readonly StoredKey[];
  chosen: StoredKey | undefined;
  /** A model to put in the snippets. */
  model: string;
}

/** A block to copy: a labelled, focusable `<pre>` with a copy button (the button appears with script). */
function copyBlock(id: string, title: string, text: string): Html {
  return html`<h3 id="${id}-title">${title}</h3>
<pre id="${id}" tabindex="0" aria-labelledby="${id}-title">${text}</pre>
<p><button type="button" class="secondary" data-copy="${id}" hidden>Copy</button></p>`;
}

/** Single quotes for the shell: `'…'` with any `'` closed, escaped and reopened. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function connectPage(ctx: PageContext, state: ConnectPageState): Html {
  const root = state.apiRoot;
  const v1 = `${root}/v1`;
  const model = state.model;
  // The whole key is not here (it was shown once): a line with part of it would be copied as the
  // key. This one asks for the key instead, without echoing it or leaving it in the shell history.
  const whichKey =
    state.chosen === undefined
      ? html`the whole key you copied when you created it on the Keys page`
      : html`the whole key “${state.chosen.name}” you copied when you created it (it begins <code>sk-sy-${state.chosen.publicId}</code>)`;
  const snippets = [
    copyBlock('snippet-env', 'Your key, in the environment', 'read -rs SWITCHYARD_API_KEY && export SWITCHYARD_API_KEY'),
    html`<p class="hint">Run it in bash or zsh, paste ${whichKey}, and press Enter.</p>`,
    copyBlock(
      'snippet-curl',
      'curl',
      `curl ${v1}/chat/completions \\\n  -H "Authorization: Bearer $SWITCHYARD_API_KEY" \\\n  -H "Content-Type: application/json" \\\n  -d ${shellQuote(JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] }))}`,
    ),
    copyBlock(
      'snippet-openai',
      'openai SDK (JavaScript; Python takes the same base_url)',
      `import OpenAI from "openai";\n\nconst client = new OpenAI({ baseURL: ${JSON.stringify(v1)}, apiKey: process.env.SWITCHYARD_API_KEY });\nconst completion = await client.chat.completions.create({\n  model: ${JSON.stringify(model)},\n  messages: [{ role: "user", content: "Hello" }],\n});\nconsole.log(completion.choices[0].message.content);`,
    ),
    copyBlock(
      'snippet-anthropic',
      '@anthropic-ai/sdk (JavaScript; Python takes the same base_url)',
      `import Anthropic from "@anthropic-ai/sdk";\n\nconst client = new Anthropic({ baseURL: ${JSON.stringify(root)}, apiKey: process.env.SWITCHYARD_API_KEY });\nconst message = await client.messages.create({\n  model: ${JSON.stringify(model)},\n  max_tokens: 1024,\n  messages: [{ role: "user", content: "Hello" }],\n});\nconsole.log(message.content);`,
    ),
    copyBlock(
      'snippet-claude-code',
      'Claude Code',
      `ANTHROPIC_BASE_URL=${shellQuote(root)} ANTHROPIC_AUTH_TOKEN="$SWITCHYARD_API_KEY" \\\nANTHROPIC_MODEL=${shellQuote(model)} ANTHROPIC_DEFAULT_HAIKU_MODEL=${shellQuote(model)} claude`,
    ),
    copyBlock(
      'snippet-codex',
      'Codex CLI (Responses API, streaming)',
      `codex -c model_provider=switchyard \\\n  -c 'model_providers.switchyard={name="Switchyard", base_url=${JSON.stringify(v1)}, env_key="SWITCHYARD_API_KEY", wire_api="responses"}' \\\n  -m ${shellQuote(model)}`,
    ),
  ];
  return layout(
    ctx,
    'Connect a client',
    'connect',
    html`<h2>Base URLs</h2>
<div class="table-scroll"><table>
  <caption class="visually-hidden">Which base URL each kind of client takes</caption>
  <thead><tr><th scope="col">Clients</th><th scope="col">Base URL</th><th scope="col"><span class="visually-hidden">Copy</span></th></tr></thead>
  <tbody>
    <tr><td>OpenAI SDKs, <code>OPENAI_BASE_URL</code>, chat front-ends, Codex: they add <code>/chat/completions</code> or <code>/responses</code></td><td><code id="base-openai">${v1}</code></td><td><button type="button" class="secondary" data-copy="base-openai" hidden>Copy</button></td></tr>
    <tr><td>Clients that add <code>/v1</code> themselves: the Anthropic SDKs, Claude Code’s <code>ANTHROPIC_BASE_URL</code></td><td><code id="base-root">${root}</code></td><td><button type="button" class="secondary" data-copy="base-root" hidden>Copy</button></td></tr>
  </tbody>
</table></div>
<p class="hint">The rule: if the client appends <code>/v1/…</code> itself, give it the root; otherwise give it <code>…/v1</code>. A wrong one answers with an error that says which to use.</p>
<h2>Snippets</h2>
<form method="get" action="${ctx.base}/connect" class="row">
  <div><label for="key">Key to fill in</label><select id="key" name="key">
    <option value="">(none)</option>
    ${state.keys.map((key) => html`<option value="${key.publicId}"${state.chosen?.publicId === key.publicId ? html` selected` : ''}>${key.name} (${key.publicId})</option>`)}
  </select></div>
  <div><button type="submit" class="secondary">Fill in</button></div>
</form>
<p class="hint">The snippets read the key from <code>SWITCHYARD_API_KEY</code>: the whole key was shown once, when you created it, and is not shown here.</p>
${snippets}`,
  );
}
