/** A minimal structured logger; pino, console and no-op loggers all fit. */
export interface Logger {
  debug(object: object, message?: string): void;
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

/** One JSON log line (without its newline): `level`, `time`, the object's fields, then `msg`. */
export function formatLogLine(level: string, object: object, message?: string): string {
  return JSON.stringify({ level, time: new Date().toISOString(), ...object, ...(message ? { msg: message } : {}) }, (key, value: unknown) =>
    value instanceof Error ? { name: value.name, message: value.message } : value,
  );
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
