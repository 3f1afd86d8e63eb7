import { configError, fieldPath } from '../canonical/index.js';

/** `${NAME}`, `${NAME:-fallback}`, or `$${…}` for a literal `${…}`. */
const reference = /\$(\$)?\{([^}]*)\}/g;
const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * A whole value that is `$` and an upper-case name (`$SWITCHYARD_API_KEY`): a reference written
 * without braces, which would otherwise become a literal key. Only whole values of this shape are
 * refused: a `$` inside a longer value (a password) is kept as written.
 */
const bareReference = /^\$([A-Z_][A-Z0-9_]*)$/;
/** A `${` with no closing brace after it (not the escaped `$${`). */
const unclosedReference = /(?<!\$)\$\{[^}]*$/;
/** A whole value that is an unclosed reference to an upper-case name (`${SWITCHYARD_API_KEY`): the only kind repeated. */
const unclosedWholeReference = /^\$\{([A-Z_][A-Z0-9_]*)$/;

/** A reference that cannot be filled in: the variable is unset, or the reference is malformed. */
interface EnvProblem {
  path: readonly PropertyKey[];
  /** Set when the variable is unset or empty; otherwise the reference itself is wrong. */
  missing?: string;
  /** What is wrong, as the rest of a sentence that starts with the field's path. */
  detail: string;
}

function interpolateString(text: string, env: NodeJS.ProcessEnv, path: readonly PropertyKey[], problems: EnvProblem[]): string {
  const bare = bareReference.exec(text);
  if (bare) {
    problems.push({
      path,
      detail:
        `is '${text}', which is not filled in (only \${NAME} is): write "\${${bare[1]}}". ` +
        '(A whole value of $ and an upper-case name is taken for a reference; a $ anywhere else is kept as written.)',
    });
    return text;
  }
  if (unclosedReference.test(text.replace(reference, ''))) {
    // Only a whole-value reference is repeated: in a longer value, what follows `${` may be part of a secret.
    const name = unclosedWholeReference.exec(text)?.[1];
    problems.push({
      path,
      detail:
        name === undefined
          ? "has a '${' with no closing brace: write ${NAME}, or $${ for a literal '${'"
          : `has '\${${name}' with no closing brace: write "\${${name}}"`,
    });
    return text;
  }
  return text.replace(reference, (whole: string, escaped: string | undefined, inner: string) => {
    if (escaped !== undefined) return whole.slice(1);
    const separator = inner.indexOf(':-');
    const name = (separator < 0 ? inner : inner.slice(0, separator)).trim();
    if (!variableName.test(name)) {
      problems.push({
        path,
        detail: `has '${whole}', which is not a variable reference: write \${NAME} or \${NAME:-fallback}, or $\${…} for a literal`,
      });
      return whole;
    }
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (separator >= 0) return inner.slice(separator + 2);
    problems.push({ path, missing: name, detail: `uses \${${name}}, and ${name} is not set (or is empty)` });
    return whole;
  });
}

function fill(value: unknown, env: NodeJS.ProcessEnv, path: readonly PropertyKey[], problems: EnvProblem[]): unknown {
  if (typeof value === 'string') return interpolateString(value, env, path, problems);
  if (Array.isArray(value)) return value.map((item: unknown, index) => fill(item, env, [...path, index], problems));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, env, [...path, key], problems)]));
  }
  return value;
}

/** One error for every problem found: `CONFIG_ENV_REFERENCE_INVALID` when a reference is malformed, else `CONFIG_ENV_MISSING`. */
function envError(problems: readonly EnvProblem[], source: string) {
  const lines = problems.map((problem) => `  ${fieldPath(problem.path) || '(top level)'} ${problem.detail}`);
  const missing = [...new Set(problems.flatMap((problem) => (problem.missing === undefined ? [] : [problem.missing])))];
  const malformed = problems.some((problem) => problem.missing === undefined);
  const what = problems.length === 1 ? 'an environment variable reference' : `${problems.length} environment variable references`;
  const footer =
    missing.length === 0
      ? ''
      : `\nSet ${missing.join(', ')} (export ${missing[0]}=…), or give ${missing.length === 1 ? 'it' : 'each'} a fallback: \${${missing[0]}:-value}.`;
  return configError(
    malformed ? 'CONFIG_ENV_REFERENCE_INVALID' : 'CONFIG_ENV_MISSING',
    `${source} has ${what} that cannot be filled in:\n${lines.join('\n')}${footer}`,
  );
}

/**
 * A copy of a parsed config document with every `${NAME}` in its string values replaced by the
 * environment variable's value. Every problem is reported at once, in one error naming `source`
 * (the file) and each field: a missing (or empty) variable without a fallback is
 * `CONFIG_ENV_MISSING`; a malformed reference — `${not a name}`, an unclosed `${NAME`, or a whole
 * value `$NAME` written without braces — is `CONFIG_ENV_REFERENCE_INVALID`. Keys are left alone.
 */
export function interpolateEnv(value: unknown, env: NodeJS.ProcessEnv, source = 'The config'): unknown {
  const problems: EnvProblem[] = [];
  const filled = fill(value, env, [], problems);
  if (problems.length > 0) throw envError(problems, source);
  return filled;
}
