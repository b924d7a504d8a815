import type { Duck } from '@asof/duck';
import type { Source } from '@asof/schema';
import { edgarSource } from '@asof/source-edgar';
import { embeddedSource } from '@asof/source-embedded';
import { fredSource } from '@asof/source-fred';
import { fredmdSource } from '@asof/source-fredmd';
import { pricesSource } from '@asof/source-prices';
import { rtdsmSource } from '@asof/source-rtdsm';
import { scaleSource } from '@asof/source-scale';
import type { Registry } from '@asof/taxonomy';
import type { z } from 'zod';

/** What the build offers a source beyond the common context. */
export interface BuildSourceServices {
  /** The build's DuckDB, for the sources that generate inside it (rows: 'duck'). */
  duck?: Duck;
  registry?: Registry;
}

/**
 * Every source a pipeline can configure, in the order a build runs them. The order is part of the output:
 * rows reach the staging tables in it, so reordering changes the universe's bytes; it is also the order of
 * the pipeline's `sources` fields (pipeline-config.ts). Each keeps its own type here (its name and schema),
 * from which the pipeline schema and `SourceName` are composed.
 */
export const REGISTERED_SOURCES = [
  embeddedSource,
  edgarSource,
  fredSource,
  pricesSource,
  fredmdSource,
  rtdsmSource,
  scaleSource,
] as const;

/** One registered source, with its own name and schema types. */
export type RegisteredSource = (typeof REGISTERED_SOURCES)[number];

/** A key of the pipeline's `sources` block: the name a source is configured and counted under. */
export type SourceName = RegisteredSource['name'];

/** The registry as the build loops over it: every source behind the one contract. */
export const SOURCE_REGISTRY: readonly Source<z.ZodType, BuildSourceServices>[] = REGISTERED_SOURCES;
