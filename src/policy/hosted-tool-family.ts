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
