import type { Manifest } from '@asof/schema';
import type { SourceTerms } from './describe-source-terms.ts';
import type { PublishConfig, PublishedColumn } from './write-published-config.ts';

/** A file of a published folder, as the card and croissant.json list it. */
export interface PublishedFile {
  path: string;
  format: 'parquet' | 'csv';
  sha256: string;
  bytes: number;
}

/** One config of a published folder with what was written for it. */
export interface PublishedConfig extends PublishConfig {
  columns: PublishedColumn[];
  rows: number;
  files: PublishedFile[];
}

/** Per frequency, a split's evaluation windows (fev's horizon, num_windows and initial_cutoff). */
export interface PublishedWindows {
  frequency: string;
  horizon: number;
  windows: number;
  initial_cutoff: string;
  series: number;
}

/** Everything the card, croissant.json and tasks.yaml say about a published folder. */
export interface PublishedDataset {
  name: string;
  kind: 'universe' | 'split';
  parentDatasetId: string;
  version: string;
  datePublished: string;
  url: string;
  creator: string;
  live: boolean;
  configs: PublishedConfig[];
  warnings: Manifest['warnings'];
  terms: SourceTerms[];
  license: { name: string; details: string };
  /** A split's cutoffs and windows; null for a universe. */
  split: {
    train_cutoff: string;
    model_cutoff: string | null;
    run_date: string | null;
    windows: PublishedWindows[];
  } | null;
}
