/**
 * Switchyard-minted reasoning `encrypted_content`: carries an Anthropic thinking `signature` or
 * `redacted_thinking` data through a Responses client, which echoes reasoning items back verbatim.
 * Format: `sy1.` + base64url(JSON `{"signature"?: string, "redacted"?: string}`).
 */
const prefix = 'sy1.';

export interface ReasoningSecrets {
  signature?: string;
  redactedData?: string;
}

function toBase64Url(textValue: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(textValue)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(encoded: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) return undefined;
  const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
  try {
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The `encrypted_content` for a reasoning part with a signature or redacted data; `undefined` when it has neither. */
export function encodeResponsesEncryptedContent(secrets: ReasoningSecrets): string | undefined {
  if (secrets.signature === undefined && secrets.redactedData === undefined) return undefined;
  const payload: Record<string, string> = {};
  if (secrets.signature !== undefined) payload.signature = secrets.signature;
  if (secrets.redactedData !== undefined) payload.redacted = secrets.redactedData;
  return prefix + toBase64Url(JSON.stringify(payload));
}

/** Restores what `encodeResponsesEncryptedContent` minted; `undefined` for anyone else's `encrypted_content`. */
export function decodeResponsesEncryptedContent(value: string): ReasoningSecrets | undefined {
  if (!value.startsWith(prefix)) return undefined;
  const json = fromBase64Url(value.slice(prefix.length));
  if (json === undefined) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { signature, redacted } = payload as Record<string, unknown>;
  const secrets: ReasoningSecrets = {};
  if (typeof signature === 'string') secrets.signature = signature;
  if (typeof redacted === 'string') secrets.redactedData = redacted;
  return secrets.signature === undefined && secrets.redactedData === undefined ? undefined : secrets;
}
