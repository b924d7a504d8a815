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

/** What the build offers a source beyond the common context. */
export interface BuildSourceServices {
  /** The build's DuckDB, for the sources that generate inside it (rows: 'duck'). */
  duck?: Duck;
  registry?: Registry;
}

/**
 * Every source a pipeline can configure, in the order a build runs them. The order is part of the output:
 * rows reach the staging tables in it, so reordering changes the universe's bytes.
 */
export const SOURCE_REGISTRY: readonly Source<unknown, BuildSourceServices>[] = [
  embeddedSource,
  edgarSource,
  fredSource,
  pricesSource,
  fredmdSource,
  rtdsmSource,
  scaleSource,
];
