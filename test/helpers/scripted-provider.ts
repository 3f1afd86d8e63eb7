import type { CanonicalStreamEvent } from '../../src/canonical/index.js';
import type { ProviderAdapter, ProviderContext } from '../../src/providers/types.js';

/**
 * A provider whose stream is written by the test: each step yields events, or awaits something
 * the test controls (a gate, the abort signal), or throws.
 */
export function createScriptedProvider(
  script: (context: ProviderContext) => AsyncIterable<CanonicalStreamEvent>,
): ProviderAdapter & { contexts: ProviderContext[] } {
  const contexts: ProviderContext[] = [];
  return {
    id: 'scripted',
    contexts,
    async generate() {
      throw new Error('scripted provider only streams');
    },
    stream(_request, context) {
      contexts.push(context);
      return script(context);
    },
  };
}

/** A promise with its resolver exposed. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
