// Every test file fails when Node warns that listeners pile up on an emitter or an AbortSignal:
// that warning is how a listener leak on a long stream shows itself.
import { afterAll, expect } from 'vitest';

const leaks: string[] = [];
const onWarning = (warning: Error) => {
  if (warning.name === 'MaxListenersExceededWarning') leaks.push(warning.message);
};
process.on('warning', onWarning);

afterAll(async () => {
  // Node emits warnings on the next tick: let the last test's warnings arrive.
  await new Promise((resolve) => setImmediate(resolve));
  process.off('warning', onWarning);
  expect(leaks, 'MaxListenersExceededWarning during this file').toEqual([]);
});
