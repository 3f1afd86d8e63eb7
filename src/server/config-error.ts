import { GatewayError } from '../canonical/index.js';

/** A problem with the server's configuration (file, flags or environment): a `CONFIG_*` GatewayError. */
export function configError(code: string, message: string, cause?: unknown): GatewayError {
  return new GatewayError({ kind: 'internal', code, message, ...(cause === undefined ? {} : { cause }) });
}

/** A zod issue path as a reader writes it: `models[1].provider`, `server.port`. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text === '' ? '(top level)' : text;
}
