export { runAdapterContract } from './adapter-contract.js';
export type { AdapterContractOptions, ContractScenario, AdapterUnderTest, ContractSetup } from './adapter-contract.js';
export { checkStreamEvents } from './check-stream-events.js';
