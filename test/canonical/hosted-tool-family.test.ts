import { describe, expect, it } from 'vitest';
import { hostedToolFamily } from '../../src/canonical/hosted-tool-family.js';

describe('hostedToolFamily', () => {
  it('should name one feature the same across protocols and versions', () => {
    expect(
      ['web_search', 'web_search_preview', 'web_search_preview_2025_03_11', 'web_search_2025_08_26', 'web_search_20250305'].map(
        hostedToolFamily,
      ),
    ).toEqual(Array(5).fill('web_search'));
    expect(hostedToolFamily('code_interpreter')).toBe('code_execution');
    expect(hostedToolFamily('code_execution_20250825')).toBe('code_execution');
    expect(hostedToolFamily('mcp_toolset')).toBe('mcp');
    expect(hostedToolFamily('web_fetch_20250910')).toBe('web_fetch');
  });

  it('should keep other kinds by their name without version', () => {
    expect(hostedToolFamily('bash_20250124')).toBe('bash');
    expect(hostedToolFamily('custom')).toBe('custom');
    expect(hostedToolFamily('constructor')).toBe('constructor');
  });
});
