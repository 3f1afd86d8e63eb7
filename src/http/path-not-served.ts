import { findClosestId, GatewayError } from '../canonical/index.js';

/**
 * API families other gateways and the providers serve under `/v1/<first segment>` that this one does
 * not: what they are called in the answer.
 */
const notOffered: ReadonlyMap<string, string> = new Map([
  ['embeddings', 'embeddings'],
  ['audio', 'audio (speech, transcription, translation)'],
  ['images', 'images'],
  ['completions', 'the legacy Completions API (send the prompt as a user message to POST /v1/chat/completions)'],
  ['complete', "Anthropic's legacy Text Completions API (use POST /v1/messages)"],
  ['moderations', 'moderations'],
  ['files', 'files'],
  ['uploads', 'uploads'],
  ['batches', 'batches'],
  ['fine_tuning', 'fine-tuning'],
  ['assistants', 'assistants'],
  ['threads', 'threads'],
  ['vector_stores', 'vector stores'],
  ['realtime', 'the Realtime API'],
]);

/** What `/v1/...` names among the APIs not offered, or undefined. */
function apiNotOffered(path: string): string | undefined {
  if (!path.startsWith('/v1/')) return undefined;
  if (path === '/v1/messages/batches' || path.startsWith('/v1/messages/batches/')) return 'message batches';
  const end = path.indexOf('/', 4);
  return notOffered.get(end === -1 ? path.slice(4) : path.slice(4, end));
}

/**
 * The 404 for a path nothing serves, when there is no host app to pass it to (the standalone server,
 * `http.createServer(gateway())`). It lists what is served (`served`, e.g. `POST /v1/chat/completions`);
 * an OpenAI or Anthropic API the gateway does not offer (`/v1/embeddings`, `/v1/audio/…`,
 * `/v1/images/…`, the legacy `/v1/completions`, …) is named as such, code `ENDPOINT_NOT_SUPPORTED`.
 * A 404 rather than a 501: clients show a 404's message and never retry it, while most retry any
 * 5xx (the OpenAI SDKs do, unless told not to) and some print a 5xx as a server failure.
 */
export function pathNotServed(method: string | undefined, path: string, served: readonly string[]): GatewayError {
  const request = `${method ?? 'A request to'} ${path}`;
  const offered = `This gateway serves ${served.join(', ')}.`;
  const api = apiNotOffered(path);
  if (api !== undefined) {
    return new GatewayError({
      code: 'ENDPOINT_NOT_SUPPORTED',
      message: `${request} is not served: this gateway serves text generation only, not ${api}. ${offered}`,
    });
  }
  // A near miss of a served path (`/v1/mesages`) is named: the list alone hides the typo.
  // Compared after `/v1/`, which every served path shares.
  const endpoints = served
    .map((entry) => entry.slice(entry.indexOf(' ') + 1))
    .filter((endpoint) => endpoint.startsWith('/v1/') && !endpoint.includes('{'));
  const closest =
    path.startsWith('/v1/') && path.length > '/v1/'.length
      ? findClosestId(
          path.slice(4),
          endpoints.map((endpoint) => endpoint.slice(4)),
        )
      : undefined;
  const entry = closest === undefined ? undefined : served.find((line) => line.endsWith(` /v1/${closest}`));
  const hint = entry === undefined ? '' : ` Did you mean ${entry}?`;
  return new GatewayError({ code: 'NOT_FOUND', message: `Nothing is served at ${request}.${hint} ${offered}` });
}
