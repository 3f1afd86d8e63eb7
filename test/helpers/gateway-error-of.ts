import { GatewayError } from '../../src/canonical/index.js';

function expectGatewayError(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  throw new Error(`expected a GatewayError, got: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
}

/** The GatewayError `work` throws; fails the test when it throws nothing or something else. */
export function gatewayErrorOf(work: () => unknown): GatewayError {
  try {
    work();
  } catch (error) {
    return expectGatewayError(error);
  }
  throw new Error('expected a GatewayError, but nothing was thrown');
}

/** The GatewayError `work` rejects (or throws) with; fails the test when it settles otherwise. */
export async function gatewayErrorOfAsync(work: () => unknown): Promise<GatewayError> {
  try {
    await work();
  } catch (error) {
    return expectGatewayError(error);
  }
  throw new Error('expected a GatewayError, but nothing was thrown');
}
