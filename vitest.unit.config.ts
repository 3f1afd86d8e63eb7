import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';
import { UNIT_TIER_EXCLUDE, UNIT_TIER_INCLUDE } from './test/setup/unit-tier.js';

// `npm run test:unit`: the main config, over the files that need no server (test/setup/unit-tier.ts).
export default defineConfig({
  test: { ...base.test, include: UNIT_TIER_INCLUDE, exclude: [...configDefaults.exclude, ...UNIT_TIER_EXCLUDE] },
});
