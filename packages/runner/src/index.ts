export { RUNNER_ERRORS } from './error-codes.ts';
export { sandboxAvailable, sandboxMode } from './model-sandbox.ts';
export { modelProtocolJsonSchema } from './protocol.ts';
export { runModel } from './run-model.ts';
export { readRunRecords } from './run-record.ts';
