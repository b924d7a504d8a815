// @asof/publish: a universe or split as a Hugging Face dataset folder with a Croissant card and fev tasks (issue 54).
export { testOnlyMarker } from './check-redistribution.ts';
export { Croissant } from './croissant-schema.ts';
export { PUBLISH_ERRORS } from './error-codes.ts';
export { type PublishOptions, type PublishResult, publishDataset } from './publish-dataset.ts';
