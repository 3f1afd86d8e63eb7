import { configDefaults, defineConfig } from 'vitest/config';
import { UNIT_TIER_EXCLUDE, UNIT_TIER_INCLUDE } from './test/setup/unit-tier.js';

/** What every test file runs with, in `npm test` and `npm run test:unit` alike. */
export const sharedTestSettings = {
  setupFiles: ['test/setup/fail-on-listener-leaks.ts'],
  testTimeout: 20_000,
  hookTimeout: 20_000,
};

export default defineConfig({
  test: {
    projects: [
      // The unit tier's files (test/setup/unit-tier.ts) share their worker's modules (isolate: false):
      // importing the gateway afresh was most of each such file's time (test/providers: 92 s isolated,
      // 24 s shared, on a loaded 2-core machine). They pass so together: npm run test:unit runs them so.
      {
        test: {
          ...sharedTestSettings,
          name: 'unit',
          include: UNIT_TIER_INCLUDE,
          exclude: [...configDefaults.exclude, ...UNIT_TIER_EXCLUDE],
          isolate: false,
        },
      },
      // Servers, databases, browsers, CLIs: each file in modules of its own, as they were written for.
      {
        test: {
          ...sharedTestSettings,
          name: 'services',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...UNIT_TIER_INCLUDE],
        },
      },
      { test: { ...sharedTestSettings, name: 'services in unit folders', include: UNIT_TIER_EXCLUDE } },
    ],
  },
});
