import { describe, expect, it } from 'vitest';
import { createMockProvider } from '../../src/providers/mock/index.js';
import { createModelTable } from '../../src/routing/create-model-table.js';

const providers = { east: createMockProvider(), west: createMockProvider() };

describe('createModelTable', () => {
  describe('deployments', () => {
    it('should make one deployment of a model with one provider, as before', () => {
      const { table } = createModelTable([{ id: 'm', provider: 'east', upstreamModel: 'up' }], providers);
      const model = table.get('m')!;
      expect(
        model.deployments.map((deployment) => [deployment.name, deployment.providerId, deployment.upstreamModel, deployment.weight]),
      ).toEqual([['east/up', 'east', 'up', 1]]);
      expect([model.providerId, model.upstreamModel, model.adapter]).toEqual(['east', 'up', providers.east]);
      expect(model.strategy).toBe('weighted');
    });

    it('should bind each deployment, its upstream model defaulting to the model’s', () => {
      const { table } = createModelTable(
        [
          {
            id: 'm',
            upstreamModel: 'up',
            strategy: 'least-busy',
            deployments: [
              { provider: 'east', weight: 3 },
              { provider: 'west', upstreamModel: 'other', name: 'west-eu' },
            ],
          },
        ],
        providers,
      );
      const model = table.get('m')!;
      expect(model.deployments.map((deployment) => [deployment.name, deployment.upstreamModel, deployment.weight])).toEqual([
        ['east/up', 'up', 3],
        ['west-eu', 'other', 1],
      ]);
      // Code that reads one deployment reads the first.
      expect(model.adapter).toBe(providers.east);
      expect(model.strategy).toBe('least-busy');
    });

    it('should refuse a model with neither provider nor deployments, or both', () => {
      expect(() => createModelTable([{ id: 'm' }], providers)).toThrow(expect.objectContaining({ code: 'CONFIG_MODEL_DEPLOYMENTS' }));
      expect(() => createModelTable([{ id: 'm', provider: 'east', deployments: [{ provider: 'west' }] }], providers)).toThrow(
        expect.objectContaining({ code: 'CONFIG_MODEL_DEPLOYMENTS' }),
      );
    });

    it('should refuse a deployment on a provider that is not configured, or two of the same name', () => {
      expect(() => createModelTable([{ id: 'm', deployments: [{ provider: 'nope' }] }], providers)).toThrow(
        expect.objectContaining({ code: 'CONFIG_UNKNOWN_PROVIDER' }),
      );
      expect(() => createModelTable([{ id: 'm', deployments: [{ provider: 'east' }, { provider: 'east' }] }], providers)).toThrow(
        expect.objectContaining({ code: 'CONFIG_MODEL_ID_DUPLICATE' }),
      );
    });
  });

  describe('fallbacks', () => {
    it('should resolve fallbacks by id or alias, to models configured before or after', () => {
      const { table } = createModelTable(
        [
          { id: 'a', provider: 'east', fallbacks: ['b-alias'], contextFallback: 'c' },
          { id: 'b', provider: 'west', aliases: ['b-alias'] },
          { id: 'c', provider: 'west' },
        ],
        providers,
      );
      expect(table.get('a')!.fallbacks).toEqual(['b']);
      expect(table.get('a')!.contextFallback).toBe('c');
    });

    it('should refuse a fallback that is not a configured model, or the model itself', () => {
      expect(() => createModelTable([{ id: 'a', provider: 'east', fallbacks: ['ghost'] }], providers)).toThrow(
        expect.objectContaining({ code: 'CONFIG_UNKNOWN_FALLBACK_MODEL' }),
      );
      expect(() => createModelTable([{ id: 'a', provider: 'east', contextFallback: 'a' }], providers)).toThrow(
        expect.objectContaining({ code: 'CONFIG_UNKNOWN_FALLBACK_MODEL' }),
      );
    });
  });
});
