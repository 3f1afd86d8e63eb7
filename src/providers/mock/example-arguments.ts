import type { JsonSchema } from '../../canonical/index.js';

/** A deterministic value that satisfies the common parts of a JSON Schema. */
function exampleValue(schema: unknown, depth: number): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 6) return null;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if ('const' in node) return node.const;
  if ('default' in node) return node.default;
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'string':
      return 'example';
    case 'integer':
    case 'number':
      return typeof node.minimum === 'number' ? node.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'null':
      return null;
    default:
      if (typeof node.properties === 'object' && node.properties !== null) {
        const properties = node.properties as Record<string, unknown>;
        return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, exampleValue(value, depth + 1)]));
      }
      return type === 'object' || type === undefined ? {} : null;
  }
}

/** Arguments the mock model "chooses" for a tool: one example value per declared property. */
export function exampleArguments(parameters: JsonSchema | undefined): Record<string, unknown> {
  const value = exampleValue(parameters ?? { type: 'object' }, 0);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
