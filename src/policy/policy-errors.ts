import { GatewayError } from '../canonical/index.js';

/** Why a refused field or tool is the operator's to allow; absent for names without a known reason. */
const reasons: ReadonlyMap<string, string> = new Map([
  ['mcp_servers', "it connects the provider to remote MCP servers from the operator's account"],
  ['container', 'it runs a code-execution container billed to the operator'],
  ['background', 'a background response runs and is kept at the provider after the request ends'],
  ['web_search_options', 'web search is billed per search'],
  ['inference_geo', 'data-residency routing is billed at a premium'],
  ['web_search', 'web search is billed per search'],
  ['web_fetch', "it fetches remote pages from the operator's account"],
  ['mcp', "it connects the provider to a remote MCP server from the operator's account"],
  ['code_execution', 'it runs a code-execution container billed to the operator'],
  ['file_search', "it searches files stored in the operator's account"],
  ['image_generation', 'image generation is billed per image'],
]);

/** Longest caller-chosen name repeated in a message. */
const NAME_MAX = 80;
const quoted = (name: string) => (name.length <= NAME_MAX ? name : `${name.slice(0, NAME_MAX)}…`);

export type RefusedPart =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'tool'; readonly name: string; readonly family: string }
  | { readonly kind: 'tool-choice'; readonly name: string; readonly family: string }
  | { readonly kind: 'beta'; readonly name: string };

/** The 400 for a part of the request the policy refuses, naming it and the setting that allows it. */
export function policyRefusalError(part: RefusedPart): GatewayError {
  const name = quoted(part.name);
  const what =
    part.kind === 'field'
      ? `the '${name}' field`
      : part.kind === 'beta'
        ? `the anthropic-beta '${name}'`
        : part.kind === 'tool'
          ? `the '${name}' tool`
          : `a tool_choice forcing the '${name}' tool, which the policy leaves out`;
  const reason = reasons.get(part.kind === 'field' ? part.name : part.kind === 'beta' ? '' : part.family);
  const setting =
    part.kind === 'field'
      ? `requestPolicy.fields['${name}']`
      : part.kind === 'beta'
        ? `requestPolicy.anthropicBetas['${name}']`
        : `requestPolicy.tools['${part.family}']`;
  return new GatewayError({
    code: 'REQUEST_POLICY_REFUSED',
    param: part.kind === 'field' ? part.name : part.kind === 'beta' ? 'anthropic-beta' : part.kind === 'tool' ? 'tools' : 'tool_choice',
    message: `This gateway's request policy refuses ${what}${reason === undefined ? '' : ` (${reason})`}. Remove it, or ask the gateway's operator to allow it (${setting}: 'allow').`,
  });
}

/** The 400 for a Chat `n` over the policy's cap: fewer choices than asked would break the caller. */
export function choicesOverCapError(asked: number, cap: number): GatewayError {
  return new GatewayError({
    code: 'REQUEST_POLICY_OVER_CAP',
    param: 'n',
    message: `This gateway's request policy allows at most ${cap} choice${cap === 1 ? '' : 's'} per request ('n'); the request asks for ${asked}. Ask for n <= ${cap}, or ask the gateway's operator to raise requestPolicy.maxChoices.`,
  });
}
