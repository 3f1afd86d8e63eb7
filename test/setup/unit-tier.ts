// The fast tier (`npm run test:unit`): the test files that need no PostgreSQL, Redis or chromium.
// Run with the three pointed at closed ports and a missing path, all of them pass (checked by hand,
// and the imports they may not have are checked by test/setup/unit-tier.test.ts).

/** Folders and files whose tests run on Node alone. */
export const UNIT_TIER_INCLUDE = [
  'test/architecture/**/*.test.ts',
  'test/canonical/**/*.test.ts',
  'test/catalog/**/*.test.ts',
  'test/endpoints/**/*.test.ts',
  'test/gateway/**/*.test.ts',
  'test/pipeline/**/*.test.ts',
  'test/examples/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/docs-site/**/*.test.ts',
  'test/observability/**/*.test.ts',
  'test/policy/**/*.test.ts',
  'test/protocols/**/*.test.ts',
  'test/providers/**/*.test.ts',
  'test/routing/**/*.test.ts',
  'test/testing/**/*.test.ts',
  'test/docs/guide-pages.test.ts',
  'test/*.test.ts',
];

/** Files in those folders that use Redis, chromium or a database. */
export const UNIT_TIER_EXCLUDE = [
  'test/routing/redis-cooldown-store.test.ts',
  'test/examples/response-cache.test.ts',
  'test/examples/guardrail.test.ts',
  'test/docs-site/docs-site.browser.test.ts',
  'test/docs-site/docs-in-server.test.ts',
];

/** What a file of the tier may not mention: the helpers and settings that reach a service. */
export const SERVICE_MARKERS =
  /test-database|scratch\.js|helpers\/browser|console-visitor|redis-server-process|REDIS_URL|DATABASE_URL|CHROMIUM_PATH|:6379|:5432|postgres:\/\//;
