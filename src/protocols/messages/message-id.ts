/**
 * The wire `id` of an answer: the provider's own id when it is already a Messages id
 * (`msg_…`), else `msg_<suffix>` of the gateway request id `req_<suffix>`.
 */
export function encodeMessagesMessageId(providerId: string | undefined, requestId: string): string {
  if (providerId?.startsWith('msg_')) return providerId;
  return `msg_${requestId.startsWith('req_') ? requestId.slice('req_'.length) : requestId}`;
}
