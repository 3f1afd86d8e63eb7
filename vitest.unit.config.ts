import { configDefaults, defineConfig } from 'vitest/config';
import { sharedTestSettings } from './vitest.config.js';
import { UNIT_TIER_EXCLUDE, UNIT_TIER_INCLUDE } from './test/setup/unit-tier.js';

// `npm run test:unit`: the files that need no server (test/setup/unit-tier.ts), sharing their
// worker's modules as the unit project of vitest.config.ts does.
export default defineConfig({
  test: {
    ...sharedTestSettings,
    include: UNIT_TIER_INCLUDE,
    exclude: [...configDefaults.exclude, ...UNIT_TIER_EXCLUDE],
    isolate: false,
  },
});
