/** A date suffix: `-2025-04-14`, `-20250929`, `@20250929`, or `-latest`. */
const dateSuffix = /([-@]\d{4}-\d{2}-\d{2}|[-@]\d{8}|-latest)$/;

/**
 * An upstream model id as the curated layer matches it: lower case, without a provider or path
 * prefix (`openai/`, `models/`, `accounts/x/models/`), a fine-tune or tag (`ft:…`, `:8b`), or a
 * date suffix. `openai/gpt-4.1-mini-2025-04-14` → `gpt-4.1-mini`, `models/gemini-2.5-pro` →
 * `gemini-2.5-pro`, `claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`, `llama3.2:3b` → `llama3.2`.
 */
export function familyId(upstreamModel: string): string {
  let id = upstreamModel.trim().toLowerCase();
  id = id.slice(id.lastIndexOf('/') + 1);
  if (id.startsWith('ft:')) id = id.slice(3);
  const tag = id.indexOf(':');
  if (tag !== -1) id = id.slice(0, tag);
  return id.replace(dateSuffix, '');
}

/**
 * The ids to look a model up under in a price source, best first: as given (lower case), then
 * without a `models/` prefix, then without any path prefix (first-party hosts name models bare).
 */
export function priceLookupIds(upstreamModel: string): string[] {
  const given = upstreamModel.trim().toLowerCase();
  const withoutModels = given.replace(/^models\//, '');
  const bare = given.slice(given.lastIndexOf('/') + 1);
  return [...new Set([given, withoutModels, bare])];
}
