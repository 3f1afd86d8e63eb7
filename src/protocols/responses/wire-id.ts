/** Item kinds and their OpenAI id prefixes (OpenAI validates these when items are replayed). */
export type ResponsesItemPrefix = 'msg' | 'fc' | 'rs' | 'ctc';

function suffixOf(requestId: string): string {
  return requestId.startsWith('req_') ? requestId.slice('req_'.length) : requestId;
}

/** `resp_<suffix>` from the gateway request id, unless the provider's id already is a `resp_` id. */
export function encodeResponsesId(requestId: string, providerId?: string): string {
  return providerId?.startsWith('resp_') === true ? providerId : `resp_${suffixOf(requestId)}`;
}

/** `<prefix>_<suffix>_<n>`, n being the item's output index. */
export function encodeResponsesItemId(requestId: string, prefix: ResponsesItemPrefix, outputIndex: number): string {
  return `${prefix}_${suffixOf(requestId)}_${outputIndex}`;
}
