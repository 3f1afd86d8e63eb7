import { formatLogLine, type Logger } from '../logger.js';

/** `--log-level` and `server.logLevel`, least to most quiet. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

/**
 * What the standalone server prints: `info` (the default) adds one line per request to warnings
 * and errors, `debug` adds the gateway's debug and info messages and `GET /health` requests,
 * `silent` prints nothing after the banner.
 */
export type LogLevel = (typeof LOG_LEVELS)[number];

const rank: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/** Whether a message at `at` is printed when the server runs at `level`. */
export function logsAt(level: LogLevel, at: Exclude<LogLevel, 'silent'>): boolean {
  return rank[at] >= rank[level];
}

/** True for one of `LOG_LEVELS`. */
export function isLogLevel(text: string): text is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}

const skip = () => undefined;

function writer(at: Exclude<LogLevel, 'silent'>, level: LogLevel): Logger['info'] {
  if (!logsAt(level, at)) return skip;
  return (object, message) => void process.stderr.write(`${formatLogLine(at, object, message)}\n`);
}

/**
 * The gateway's logger in the standalone server: JSON lines on stderr, as the library's default
 * logger writes its warnings and errors, for the messages at `level` or above.
 */
export function createServerLogger(level: LogLevel): Logger {
  return { debug: writer('debug', level), info: writer('info', level), warn: writer('warn', level), error: writer('error', level) };
}
