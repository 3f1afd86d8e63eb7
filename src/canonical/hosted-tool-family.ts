/** Kinds that differ by protocol but are one feature to the operator. */
const aliases: ReadonlyMap<string, string> = new Map([
  ['code_interpreter', 'code_execution'],
  ['mcp_toolset', 'mcp'],
]);

/** A date suffix: Anthropic `_20250305`, OpenAI `_2025_03_11`. */
const versionSuffix = /_(?:\d{8}|\d{4}_\d{2}_\d{2})$/;

/**
 * The name a hosted tool's wire type is policed under: without its version and `_preview`
 * suffixes, and one name for one feature across protocols.
 * @example
 * hostedToolFamily('web_search_20250305'); // 'web_search'
 * hostedToolFamily('web_search_preview_2025_03_11'); // 'web_search'
 * hostedToolFamily('code_interpreter'); // 'code_execution'
 */
export function hostedToolFamily(kind: string): string {
  let family = kind.replace(versionSuffix, '');
  if (family.endsWith('_preview')) family = family.slice(0, -'_preview'.length);
  return aliases.get(family) ?? family;
}

/**
 * Families of tools the provider runs on its own servers (search, fetch, code, files, MCP): a
 * request that only offers one hints at a capability, and can be served without it. Tools the
 * client runs (`custom`, `local_shell`, Anthropic `bash_…`, computer use) are not among them.
 */
const hostedFamilies: ReadonlySet<string> = new Set([
  'web_search',
  'web_fetch',
  'image_generation',
  'file_search',
  'code_execution',
  'mcp',
  'tool_search',
  'tool_search_tool_regex',
  'tool_search_tool_bm25',
]);

/** Whether a provider-defined tool of wire type `kind` runs on the provider's servers. */
export function isHostedTool(kind: string): boolean {
  return hostedFamilies.has(hostedToolFamily(kind));
}
