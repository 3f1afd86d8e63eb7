import { configError, fieldPath } from '../canonical/index.js';

/** `${NAME}`, `${NAME:-fallback}`, or `$${…}` for a literal `${…}`. */
const reference = /\$(\$)?\{([^}]*)\}/g;
const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

function interpolateString(text: string, env: NodeJS.ProcessEnv, path: readonly PropertyKey[]): string {
  return text.replace(reference, (whole: string, escaped: string | undefined, inner: string) => {
    if (escaped !== undefined) return whole.slice(1);
    const separator = inner.indexOf(':-');
    const name = (separator < 0 ? inner : inner.slice(0, separator)).trim();
    if (!variableName.test(name)) {
      throw configError(
        'CONFIG_ENV_REFERENCE_INVALID',
        `${fieldPath(path) || '(top level)'}: '${whole}' is not a valid variable reference; write \${NAME} or \${NAME:-fallback}, or $\${…} for a literal.`,
      );
    }
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (separator >= 0) return inner.slice(separator + 2);
    throw configError(
      'CONFIG_ENV_MISSING',
      `${fieldPath(path) || '(top level)'} uses \${${name}}, but the environment variable ${name} is not set. ` +
        `Set it (export ${name}=…), or give a fallback: \${${name}:-value}.`,
    );
  });
}

/**
 * A copy of a parsed config document with every `${NAME}` in its string values replaced by the
 * environment variable's value. A missing (or empty) variable without a fallback is a
 * `CONFIG_ENV_MISSING` error naming the variable and the field. Keys are left alone.
 */
export function interpolateEnv(value: unknown, env: NodeJS.ProcessEnv, path: readonly PropertyKey[] = []): unknown {
  if (typeof value === 'string') return interpolateString(value, env, path);
  if (Array.isArray(value)) return value.map((item: unknown, index) => interpolateEnv(item, env, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateEnv(item, env, [...path, key])]));
  }
  return value;
}
