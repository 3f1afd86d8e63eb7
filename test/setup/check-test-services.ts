// `npm test`'s first step (the `pretest` script): stops before the typecheck and the suites when
// PostgreSQL, Redis or chromium is missing, naming each with the one command that sets it up.
import { findMissingTestServices } from './missing-test-services.js';

const missing = await findMissingTestServices();
if (missing.length === 0) {
  console.log('Test services: PostgreSQL, Redis and chromium are there.');
} else {
  const lines = [`npm test needs ${missing.length === 1 ? 'a service that is' : 'services that are'} not there; nothing was run.`, ''];
  for (const service of missing) {
    lines.push(`  ${service.name} (${service.where}): ${service.problem}`);
    lines.push(`    ${service.command}`);
  }
  lines.push(
    '',
    'Point the tests elsewhere with DATABASE_URL, REDIS_URL and CHROMIUM_PATH.',
    '`npm run test:unit` runs the test files that need none of them.',
  );
  console.error(lines.join('\n'));
  process.exitCode = 1;
}
