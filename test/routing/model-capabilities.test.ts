import { describe, expect, it } from 'vitest';
import { allCapabilities } from '../../src/providers/all-capabilities.js';
import { modelCapabilities } from '../../src/routing/model-capabilities.js';

describe('modelCapabilities', () => {
  it('should be every capability when nobody says anything', () => {
    expect(modelCapabilities(undefined, undefined, undefined)).toEqual(allCapabilities);
  });

  it('should turn a capability off when the catalog or the adapter says no, and keep it when both allow it', () => {
    const capabilities = modelCapabilities(
      { audio: false, reasoning: true, providerTools: ['responses'] },
      { reasoning: false, audio: true, images: true },
      undefined,
    );
    expect(capabilities).toMatchObject({ audio: false, reasoning: false, images: true, tools: true, providerTools: ['responses'] });
  });

  it('should leave no hosted tools to a model the catalog says cannot run them', () => {
    expect(modelCapabilities({ providerTools: ['chat'] }, { hostedTools: false }, undefined).providerTools).toEqual([]);
  });

  it('should let the config win over both, field by field', () => {
    const capabilities = modelCapabilities(
      { audio: false },
      { reasoning: false },
      { reasoning: true, audio: true, providerTools: ['messages'] },
    );
    expect(capabilities).toMatchObject({ reasoning: true, audio: true, providerTools: ['messages'], files: true });
  });
});
