// @asof/publish: a universe or split as a Hugging Face dataset folder with a Croissant card and fev tasks (issue 54).
export { buildCroissant, CROISSANT_CONTEXT, croissantDataType } from './build-croissant.ts';
export {
  checkRedistribution,
  inputFolders,
  TEST_ONLY_MARKER,
  testOnlyMarker,
} from './check-redistribution.ts';
export { Croissant } from './croissant-schema.ts';
export { describeSourceTerms, licenseOf, type SourceTerms } from './describe-source-terms.ts';
export { PUBLISH_ERRORS } from './error-codes.ts';
export { bumpVersion, nextPublishVersion, type PublishVersion } from './next-publish-version.ts';
export { planPublishConfigs } from './plan-publish-configs.ts';
export {
  isLiveManifest,
  type PublishOptions,
  type PublishResult,
  publishDataset,
} from './publish-dataset.ts';
export type { PublishedConfig, PublishedDataset, PublishedFile } from './published-dataset.ts';
export { cardFrontMatter, featureOf, renderDatasetCard } from './render-dataset-card.ts';
export { renderFevTasks, SEASONALITY } from './render-fev-tasks.ts';
export { type PublishConfig, shardPath } from './write-published-config.ts';
