import express, { type Request, type Response } from 'express';
import { GatewayError } from '../canonical/index.js';

/** Errors raised by express.json (body-parser) carry a `type` such as `entity.too.large`. */
interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  message?: string;
}

function toBodyError(error: BodyParserError, limit: number | string): GatewayError {
  switch (error.type) {
    case 'entity.too.large':
      return new GatewayError({
        kind: 'invalid_request',
        code: 'REQUEST_TOO_LARGE',
        status: 413,
        message: `The request body is larger than this gateway's limit of ${String(limit)} bytes.`,
      });
    case 'entity.parse.failed':
      return new GatewayError({
        kind: 'invalid_request',
        code: 'INVALID_JSON',
        message: `The request body is not valid JSON: ${error.message ?? 'parse error'}.`,
      });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new GatewayError({
        kind: 'invalid_request',
        code: 'UNSUPPORTED_ENCODING',
        status: 415,
        message: `The request body's encoding is not supported: ${error.message ?? ''}.`,
      });
    default:
      return new GatewayError({
        kind: 'invalid_request',
        code: 'UNREADABLE_BODY',
        status: error.status !== undefined && error.status >= 400 && error.status < 500 ? error.status : 400,
        message: `The request body could not be read: ${error.message ?? 'unknown error'}.`,
      });
  }
}

/** A JSON body reader for one limit; the returned function resolves with the parsed body or throws a GatewayError. */
export function createJsonBodyReader(limit: number | string) {
  // Any content type is read as JSON: some clients omit the header, and nothing else is valid here.
  const parse = express.json({ limit, type: () => true, strict: true });
  return (req: Request, res: Response): Promise<unknown> =>
    new Promise((resolve, reject) => {
      parse(req, res, (error?: unknown) => {
        if (error) reject(toBodyError(error as BodyParserError, limit));
        else if (req.body === undefined) {
          reject(new GatewayError({ kind: 'invalid_request', code: 'MISSING_BODY', message: 'The request has no JSON body.' }));
        } else resolve(req.body);
      });
    });
}
