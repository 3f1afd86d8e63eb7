import { GatewayError } from './errors.js';

/**
 * A problem with the gateway's or a provider's configuration: a `CONFIG_*` GatewayError of kind
 * `internal`. The message says what is wrong and shows a correct value.
 */
export function configError(code: string, message: string, cause?: unknown): GatewayError {
  return new GatewayError({ kind: 'internal', code, message, ...(cause === undefined ? {} : { cause }) });
}

/** The part of a schema issue (zod's, or any validator's) a config error names: where and what. */
export interface ConfigIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** A field's path as a reader writes it (`models[1].provider`, `server.port`); '' for the whole value. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/**
 * The config error for the first failed check of a schema: `subject` names what was checked
 * (`gateway option`, `OpenAI provider option`), the path names the field, and `example` shows a
 * correct value.
 *
 * @example
 * const parsed = schema.safeParse(options);
 * if (!parsed.success) throw configIssueError('CONFIG_PROVIDER_INVALID', 'OpenAI provider option', parsed.error.issues[0]);
 */
export function configIssueError(code: string, subject: string, issue: ConfigIssue | undefined, example?: string): GatewayError {
  const path = issue === undefined ? '' : fieldPath(issue.path);
  return new GatewayError({
    kind: 'internal',
    code,
    message: `Invalid ${subject} '${path}': ${issue?.message ?? 'invalid value'}.${example === undefined ? '' : ` Example: ${example}.`}`,
    ...(path === '' ? {} : { param: path }),
  });
}
