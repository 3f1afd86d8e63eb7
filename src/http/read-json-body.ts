import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { GatewayError } from '../canonical/index.js';
import { checkJsonTextDepth, checkJsonValueDepth } from './json-depth.js';
import type { HttpRequest } from './types.js';

function tooLarge(limit: number): GatewayError {
  return new GatewayError({
    code: 'REQUEST_TOO_LARGE',
    message: `The request body is larger than this gateway's limit of ${limit} bytes.`,
  });
}

function unsupported(what: string): GatewayError {
  return new GatewayError({
    code: 'UNSUPPORTED_ENCODING',
    message: `The request body's ${what} is not supported; send UTF-8 JSON, optionally gzip, deflate or br compressed.`,
  });
}

const missingBody = () => new GatewayError({ code: 'MISSING_BODY', message: 'The request has no JSON body.' });

function parseJson(text: string): unknown {
  if (text.trim() === '') throw missingBody();
  // Before parsing: the parser and everything after it (validation, serialisation) recurse.
  checkJsonTextDepth(text);
  try {
    // A byte order mark is legal in UTF-8 files but not in JSON.parse.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new GatewayError({
      code: 'INVALID_JSON',
      message: `The request body is not valid JSON: ${(error as Error).message}.`,
    });
  }
}

/** The body after any Content-Encoding is undone, or a 415 for an encoding we cannot undo. */
function decodedBody(req: HttpRequest): Readable {
  const header = req.headers['content-encoding'];
  if (header === undefined) return req;
  const encoding = header.trim().toLowerCase();
  const inflate =
    encoding === 'identity'
      ? undefined
      : encoding === 'gzip' || encoding === 'x-gzip'
        ? createGunzip()
        : encoding === 'deflate'
          ? createInflate()
          : encoding === 'br'
            ? createBrotliDecompress()
            : null;
  if (inflate === null) throw unsupported(`content-encoding '${encoding}'`);
  if (inflate === undefined) return req;
  req.pipe(inflate);
  return inflate;
}

/** Any content type is read as JSON (some clients omit the header), but only in UTF-8. */
function checkCharset(req: HttpRequest): void {
  const type = req.headers['content-type'];
  if (type === undefined || type === 'application/json') return; // what nearly every client sends
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw unsupported(`charset '${charset}'`);
}

/** A body a host app's parser (express.json, express.text) already read, if one did. */
function alreadyParsed(req: HttpRequest & { _body?: boolean }): { body: unknown } | undefined {
  if (req._body !== true && !(req.readableEnded && req.body !== undefined)) return undefined;
  const body = req.body;
  if (typeof body === 'string') return { body: parseJson(body) };
  if (Buffer.isBuffer(body)) return { body: parseJson(body.toString('utf8')) };
  if (body === undefined || body === null) throw missingBody();
  checkJsonValueDepth(body);
  return { body };
}

/**
 * Reads a JSON request body of at most `limit` bytes (after decompression). Resolves with the parsed
 * value; rejects with a protocol-neutral GatewayError (400, 413 or 415) the caller renders.
 */
export function createJsonBodyReader(limit: number): (req: HttpRequest) => Promise<unknown> {
  return (req) =>
    new Promise((resolve, reject) => {
      const parsed = alreadyParsed(req);
      if (parsed) {
        resolve(parsed.body);
        return;
      }
      checkCharset(req);
      const declared = Number(req.headers['content-length']);
      if (declared > limit) throw tooLarge(limit);
      const source = decodedBody(req);
      const chunks: Buffer[] = [];
      let size = 0;
      const stop = (error: GatewayError) => {
        source.removeListener('data', onData);
        source.removeListener('end', onEnd);
        // Drain what is left so the connection can answer (and be reused); the bytes are discarded.
        req.resume();
        reject(error);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) stop(tooLarge(limit));
        else chunks.push(chunk);
      };
      const onEnd = () => {
        try {
          resolve(parseJson(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8')));
        } catch (error) {
          reject(error);
        }
      };
      source.on('data', onData);
      source.once('end', onEnd);
      source.once('error', (error: Error) => {
        stop(new GatewayError({ code: 'UNREADABLE_BODY', message: `The request body could not be read: ${error.message}.` }));
      });
      req.once('close', () => {
        if (!req.complete) stop(new GatewayError({ code: 'REQUEST_ABORTED', message: 'The request was cancelled.' }));
      });
    });
}
