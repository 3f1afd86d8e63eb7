/** A minimal structured logger; pino, console and no-op loggers all fit. */
export interface Logger {
  debug(object: object, message?: string): void;
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

let second = Number.NaN;
let secondPrefix = '';

/**
 * `new Date(now).toISOString()` for a time since 1970, formatted once per second: every log line
 * needs the time, and a full `toISOString` cost more than the rest of a request line's formatting.
 */
export function isoTime(now: number = Date.now()): string {
  const inSecond = now % 1000;
  const start = now - inSecond;
  if (start !== second) {
    second = start;
    // All but the milliseconds and the `Z`: 'YYYY-MM-DDTHH:MM:SS.'
    secondPrefix = new Date(start).toISOString().slice(0, -4);
  }
  return `${secondPrefix + (inSecond < 10 ? '00' : inSecond < 100 ? '0' : '') + inSecond}Z`;
}

const errorsAsFields = (_key: string, value: unknown) => (value instanceof Error ? { name: value.name, message: value.message } : value);

/**
 * One JSON log line (without its newline): `level`, `time`, the object's fields, then `msg`. An
 * `Error` among the fields is written as its name and message; `plain` says there is none, which
 * lets `JSON.stringify` take its fast path (a request line, written for every request).
 */
export function formatLogLine(level: string, object: object, message?: string, plain = false): string {
  const fields = plain ? JSON.stringify(object) : JSON.stringify(object, errorsAsFields);
  let line = `{"level":${JSON.stringify(level)},"time":"${isoTime()}"`;
  // `fields` is `{…}`; its inside goes between the head and the message.
  if (fields.length > 2) line += `,${fields.slice(1, -1)}`;
  if (message) line += `,"msg":${JSON.stringify(message)}`;
  return `${line}}`;
}

/** The default logger: warnings and errors as JSON lines on stderr; debug and info are dropped. */
export const consoleLogger: Logger = {
  debug() {},
  info() {},
  warn(object, message) {
    process.stderr.write(`${formatLogLine('warn', object, message)}\n`);
  },
  error(object, message) {
    process.stderr.write(`${formatLogLine('error', object, message)}\n`);
  },
};

/** A logger that drops everything (tests, embedded use). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
