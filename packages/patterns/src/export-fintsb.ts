import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Duck, describeParquet, quoteLiteral, streamArrow } from '@asof/duck';
import {
  finalizeDerivedManifest,
  manifestOutput,
  openVerifiedManifest,
  type VerifiedFile,
  type VerifiedManifest,
  writeManifest,
} from '@asof/manifest';
import { planOutput, writeOutputDir } from '@asof/output';
import { type Frequency, InputError, type Manifest, type ManifestOutput } from '@asof/schema';
import { sequenceCharacteristics } from '@asof/stats';
import { chooseDatasetSize, FINTSB_K, type FintsbPool } from './choose-dataset-size.ts';
import { buildSegmentSteps, runSegmentModel } from './run-segment-model.ts';
import { segmentParams } from './segment-options.ts';

export const FINTSB_PATTERNS = ['uptrend', 'downtrend', 'volatile', 'extreme'] as const;
export type FintsbPattern = (typeof FINTSB_PATTERNS)[number];

/** The OHLCV fields a dataset can be made of. */
export const FINTSB_FIELDS = ['open', 'high', 'low', 'close', 'volume'] as const;
export type FintsbField = (typeof FINTSB_FIELDS)[number];

/** A price unit of the taxonomy: series of (scope, category, detail_category) are `field` bars of an instrument. */
export interface PriceFieldUnit {
  scope: string;
  category: string;
  detail_category: string;
  field: FintsbField;
}

export interface ExportFintsbOptions {
  /** The parent universe's manifest.json (verified before anything is read). */
  manifestPath: string;
  /** Output folder; replaced as a whole only once the export is complete. */
  outDir: string;
  /**
   * Series (distinct instruments) per dataset. Default: the largest k up to FinTSB's 300 that gives
   * `datasets` datasets of every pattern from what the parent holds.
   */
  k?: number;
  /** Steps per dataset, ≤ the segment length of `frequency` (FinTSB: 250 trading days). */
  length?: number;
  /** Datasets per pattern (FinTSB: 5). */
  datasets?: number;
  frequency?: Frequency;
  /** The one price field every cross-section is made of (default close). */
  field?: FintsbField;
  /**
   * The universe's price units and their fields (the registry's price-kinds.tsv and embedded.tsv rows):
   * only series of these units take part, one per instrument (entity_id) and segment.
   */
  priceFields: readonly PriceFieldUnit[];
  /** 'quota' = FinTSB's ranking within a cross-section (default); 'threshold' = SPEC §7 thresholds. */
  labelMode?: 'quota' | 'threshold';
  createdBy?: { asof_version: string; git_commit: string | null; git_dirty: boolean | null };
  log?: (line: string) => void;
}

/** One row of the statistics table (the shape of FinTSB Table 1). */
export interface PatternStatistics {
  pattern: FintsbPattern;
  datasets: number;
  series: number;
  /** Means over the exported (series, dataset) pairs, each computed on the exported returns. */
  adf_stat: number;
  acf1: number;
  forecastability: number;
  split: '7:1:2';
}

export interface ExportFintsbResult {
  manifest: Manifest;
  manifestPath: string;
  statistics: PatternStatistics[];
  /** Series per dataset: --k, or the one chosen from the parent. */
  k: number;
  field: FintsbField;
}

function positiveInt(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 1) {
    throw new InputError('USAGE', `--${name} ${v}: expected a positive integer`);
  }
  return v;
}

/**
 * Writes a FinTSB-style benchmark derived from a built universe (SPEC §7): 4 patterns × `datasets`
 * datasets of `k` series × `length` steps, no (series, segment) pair used twice, each split 7:1:2 in
 * time, with features normalised across the dataset's series per day. Files: datasets/<pattern>_<n>.parquet
 * (the panel), members.parquet, datasets.parquet (split dates), statistics.parquet, and a derived
 * manifest (kind 'fintsb-export') naming the parent's dataset_id.
 */
export async function exportFintsb(options: ExportFintsbOptions): Promise<ExportFintsbResult> {
  const k = options.k === undefined ? undefined : positiveInt('k', options.k);
  const field = options.field ?? 'close';
  if (!(FINTSB_FIELDS as readonly string[]).includes(field)) {
    throw new InputError('USAGE', `--field ${field}: expected one of ${FINTSB_FIELDS.join(', ')}`);
  }
  const priceFields = checkPriceFields(options.priceFields);
  const length = positiveInt('length', options.length ?? 250);
  const nDatasets = positiveInt('datasets', options.datasets ?? 5);
  const frequency = options.frequency ?? 'BD';
  const labelMode = options.labelMode ?? 'quota';
  if (length < 10)
    throw new InputError('USAGE', `--length ${length}: expected at least 10 steps (7:1:2 split)`);
  const log = options.log ?? (() => {});
  const manifestPath = resolve(options.manifestPath);
  // Checked before anything is read: the output may not be the parent universe, lie in it, or hold it.
  const inputs = [dirname(manifestPath), manifestPath];
  planOutput(options.outDir, 'dir', { command: 'asof export fintsb', writes: 'fintsb-export', inputs });
  const verified = await openVerifiedManifest(manifestPath);
  try {
    const { value, path } = await writeOutputDir(
      options.outDir,
      {
        command: 'asof export fintsb',
        writes: 'fintsb-export',
        inputs,
        label: (r: { manifest: Manifest }) => r.manifest.dataset_id.slice(0, 12),
        beforeSwitch: () => verified.recheck(),
      },
      (work) =>
        verified.guard(() =>
          exportInto(
            work.dir,
            verified,
            { k, field, priceFields, length, nDatasets, frequency, labelMode },
            options,
            log,
          ),
        ),
    );
    log(`done: ${join(path, 'manifest.json')}`);
    return {
      manifest: value.manifest,
      manifestPath: join(path, 'manifest.json'),
      statistics: value.statistics,
      k: value.k,
      field,
    };
  } finally {
    verified.close();
  }
}

/** The export itself, writing into the temp folder `tmp`. */
async function exportInto(
  tmp: string,
  verified: VerifiedManifest,
  o: {
    k: number | undefined;
    field: FintsbField;
    priceFields: readonly PriceFieldUnit[];
    length: number;
    nDatasets: number;
    frequency: Frequency;
    labelMode: 'quota' | 'threshold';
  },
  options: ExportFintsbOptions,
  log: (line: string) => void,
): Promise<{ manifest: Manifest; statistics: PatternStatistics[]; k: number }> {
  const { field, length, nDatasets, frequency, labelMode } = o;
  const parent = verified.manifest;
  const segmentsOut = verified.files('segments');
  if (parent.kind !== 'universe') {
    // A split, an export, a score: not something older asof wrote, but another kind (audit 3.26).
    throw new InputError(
      'NOT_A_UNIVERSE',
      `${options.manifestPath}: manifest kind is '${parent.kind}'; asof export fintsb reads a universe built with 'asof build'${parent.parent_dataset_id ? ` (its parent is dataset_id ${parent.parent_dataset_id.slice(0, 12)}…)` : ''}\n  hint: pass the universe's manifest.json`,
      { context: { file: options.manifestPath, field: 'kind', value: parent.kind } },
    );
  }
  if (segmentsOut.length !== 1) {
    throw new InputError(
      'NO_SEGMENTS',
      `${options.manifestPath}: lists ${segmentsOut.length} segments files, expected 1 (segments.parquet); rebuild the universe with a version of asof that writes segments (docs/glossary.md: FinTSB movement patterns)`,
    );
  }
  const seriesOut = verified.files('series');
  const obsOut = verified.files('observations');
  const file = (f: VerifiedFile) => f.readPath;
  const used = [...segmentsOut, ...seriesOut, ...obsOut].map((f) => f.output);
  mkdirSync(join(tmp, 'datasets'), { recursive: true });
  const duck = await Duck.open({ threads: 2, tempDirectory: join(tmp, '.work', 'spill') });
  try {
    await duck.run(
      `CREATE TABLE segments AS SELECT * FROM read_parquet(${quoteLiteral(file(segmentsOut[0]))})`,
    );
    // A universe built before membership (docs/decisions/0021) has no member column: everyone was a member.
    const hasMember = await duck.one<{ n: bigint }>(
      "SELECT count(*) AS n FROM duckdb_columns() WHERE table_name = 'segments' AND column_name = 'member'",
    );
    if (Number(hasMember.n) === 0)
      await duck.run('ALTER TABLE segments ADD COLUMN member BOOLEAN DEFAULT true');
    const lengths = await duck.all<{ frequency: string; segment_length: number; grid_epoch: string }>(
      `SELECT DISTINCT frequency, segment_length, strftime(grid_epoch, '%Y-%m-%d') AS grid_epoch FROM segments`,
    );
    const mine = lengths.find((l) => l.frequency === frequency);
    if (!mine) {
      throw new InputError(
        'NO_SEGMENTS',
        `frequency ${frequency}: the parent has no labelled segments of it (it has ${lengths.map((l) => l.frequency).join(', ') || 'none'})`,
      );
    }
    if (length > mine.segment_length) {
      throw new InputError(
        'USAGE',
        `--length ${length}: longer than the ${frequency} segments of the parent (${mine.segment_length} steps); use --length ${mine.segment_length} or less`,
      );
    }
    const params = {
      ...segmentParams({
        lengths: Object.fromEntries(lengths.map((l) => [l.frequency, l.segment_length])),
        epoch: mine.grid_epoch,
      }),
      frequency,
      field,
      datasets: nDatasets,
      label_mode: labelMode,
      length,
    };
    await loadCandidateInputs(duck, file(seriesOut[0]), o.priceFields);
    await runSegmentModel(duck, 'fintsb_candidates', params);
    const k = await decideDatasetSize(duck, o.k, { nDatasets, labelMode, frequency, field }, log);
    await runSegmentModel(duck, 'fintsb_members', { ...params, k });
    log(`selected ${FINTSB_PATTERNS.length} × ${nDatasets} datasets of ${k} ${field} series`);

    // Only the members' series are re-segmented: segment_steps is per series, so the steps are the same
    // as in the parent build.
    await duck.run(
      `CREATE TABLE series AS SELECT * FROM read_parquet(${quoteLiteral(file(seriesOut[0]))})
       WHERE series_id IN (SELECT series_id FROM fintsb_members)`,
    );
    await duck.run(
      `CREATE TABLE observations AS SELECT series_id, "timestamp", available_at, value
       FROM read_parquet([${obsOut.map((o) => quoteLiteral(file(o))).join(', ')}])
       WHERE series_id IN (SELECT series_id FROM series)`,
    );
    await buildSegmentSteps(duck, params);
    await runSegmentModel(duck, 'fintsb_rows', params);
    const statistics = await computeStatistics(duck);

    const outputs: ManifestOutput[] = [];
    const write = async (path: string, table: string, query: string, orderBy: string, time?: string) => {
      const target = join(tmp, ...path.split('/'));
      await duck.writeParquet(`${query} ORDER BY ${orderBy}`, target);
      outputs.push(await describeOutput(duck, tmp, path, table, time));
    };
    const names = await duck.all<{ dataset: string }>(
      'SELECT DISTINCT dataset FROM fintsb_members ORDER BY dataset',
    );
    for (const { dataset } of names) {
      await write(
        `datasets/${dataset}.parquet`,
        'fintsb_rows',
        `SELECT * FROM fintsb_rows WHERE dataset = ${quoteLiteral(dataset)}`,
        'series_id, step',
        'timestamp',
      );
    }
    await write('members.parquet', 'fintsb_members', 'SELECT * FROM fintsb_members', 'dataset, series_id');
    await write(
      'datasets.parquet',
      'fintsb_datasets',
      `SELECT dataset, any_value(pattern) AS pattern, any_value(frequency) AS frequency, any_value(segment) AS segment,
         count(DISTINCT series_id) AS k, ${length} AS length,
         min("timestamp") FILTER (WHERE split = 'train') AS train_start, max("timestamp") FILTER (WHERE split = 'train') AS train_end,
         min("timestamp") FILTER (WHERE split = 'valid') AS valid_start, max("timestamp") FILTER (WHERE split = 'valid') AS valid_end,
         min("timestamp") FILTER (WHERE split = 'test') AS test_start, max("timestamp") FILTER (WHERE split = 'test') AS test_end
       FROM fintsb_rows JOIN fintsb_members USING (dataset, series_id, pattern, segment) GROUP BY dataset`,
      'dataset',
    );
    await duck.run(
      'CREATE TABLE fintsb_statistics (pattern VARCHAR, datasets INTEGER, series INTEGER, adf_stat DOUBLE, acf1 DOUBLE, forecastability DOUBLE, split VARCHAR)',
    );
    for (const s of statistics) {
      await duck.run('INSERT INTO fintsb_statistics VALUES ($p, $d, $s, $a, $c, $f, $x)', {
        p: s.pattern,
        d: s.datasets,
        s: s.series,
        a: s.adf_stat,
        c: s.acf1,
        f: s.forecastability,
        x: s.split,
      });
    }
    await write('statistics.parquet', 'fintsb_statistics', 'SELECT * FROM fintsb_statistics', 'pattern');

    const config = {
      k,
      k_chosen: o.k === undefined,
      field,
      length,
      datasets: nDatasets,
      frequency,
      label_mode: labelMode,
    };
    const manifest = finalizeDerivedManifest(parent, {
      suffix: 'fintsb',
      kind: 'fintsb-export',
      duckdbVersion: await duck.version(),
      createdBy: options.createdBy,
      config,
      inputs: used.map((o) => ({ source: 'parent', key: o.path, sha256: o.sha256, bytes: o.bytes })),
      outputs,
      // The universe's warnings (survivorship, synthetic data, rule-based availability) hold for what is
      // drawn from it.
      warnings: parent.warnings,
      summary: { datasets: names.length, statistics },
    });
    writeManifest(join(tmp, 'manifest.json'), manifest);
    return { manifest, statistics, k };
  } finally {
    duck.close();
  }
}

/** One field per price unit: a unit listed with two fields would put two fields of an instrument in a dataset. */
function checkPriceFields(rows: readonly PriceFieldUnit[]): PriceFieldUnit[] {
  const seen = new Map<string, PriceFieldUnit>();
  for (const r of rows) {
    const key = `${r.scope} / ${r.category} / ${r.detail_category}`;
    const prior = seen.get(key);
    if (prior !== undefined && prior.field !== r.field) {
      throw new InputError(
        'PRICE_FIELDS_CONFLICT',
        `price unit ${key} is listed as both ${prior.field} and ${r.field}; a unit holds one OHLCV field (check price-kinds.tsv and embedded.tsv)`,
        { context: { unit: key, fields: [prior.field, r.field] } },
      );
    }
    seen.set(key, r);
  }
  return [...seen.values()];
}

/** universe_series (the parent's series attributes) and price_fields, the inputs of fintsb_candidates. */
async function loadCandidateInputs(
  duck: Duck,
  seriesFile: string,
  priceFields: readonly PriceFieldUnit[],
): Promise<void> {
  await duck.run(
    `CREATE TABLE universe_series AS
     SELECT series_id, scope, category, detail_category, entity_id, eval_target
     FROM read_parquet(${quoteLiteral(seriesFile)})`,
  );
  await duck.run(
    'CREATE TABLE price_fields (scope VARCHAR, category VARCHAR, detail_category VARCHAR, field VARCHAR)',
  );
  for (const f of priceFields) {
    await duck.run('INSERT INTO price_fields VALUES ($s, $c, $d, $f)', {
      s: f.scope,
      c: f.category,
      d: f.detail_category,
      f: f.field,
    });
  }
}

/** --k, checked against the candidate pools, or (without it) the largest that works, logged with why. */
async function decideDatasetSize(
  duck: Duck,
  k: number | undefined,
  o: { nDatasets: number; labelMode: 'quota' | 'threshold'; frequency: string; field: string },
  log: (line: string) => void,
): Promise<number> {
  const { instruments, series } = await duck.one<{ instruments: bigint; series: bigint }>(
    'SELECT count(DISTINCT instrument) AS instruments, count(DISTINCT series_id) AS series FROM fintsb_candidates',
  );
  if (Number(series) === 0) {
    throw new InputError(
      'NO_FINTSB_SERIES',
      `frequency ${o.frequency}, field ${o.field}: the parent has no labelled segments of ${o.field} price series of evaluated instruments; a FinTSB dataset is one price field of distinct instruments (try another --field or --frequency)`,
      { context: { frequency: o.frequency, field: o.field } },
    );
  }
  const pools = (
    await duck.all<{ pattern: string; segment: number; size: bigint }>(
      `SELECT pattern, segment, count(*) AS size FROM fintsb_candidates
       WHERE pattern IS NOT NULL GROUP BY pattern, segment ORDER BY pattern, segment`,
    )
  ).map((p): FintsbPool => ({ pattern: p.pattern, segment: p.segment, size: Number(p.size) }));
  const chosen = chooseDatasetSize({
    pools,
    patterns: FINTSB_PATTERNS,
    datasets: o.nDatasets,
    k,
    labelMode: o.labelMode,
    frequency: o.frequency,
    field: o.field,
    instruments: Number(instruments),
  });
  if (k === undefined) {
    log(
      `k = ${chosen}: the largest dataset size (at most FinTSB's ${FINTSB_K}) that gives ${o.nDatasets} datasets of every pattern from the ${o.frequency} ${o.field} series of ${Number(instruments)} instruments; pass --k to choose`,
    );
  }
  return chosen;
}

/** Per pattern, the mean characteristics over the exported (dataset, series) returns. */
async function computeStatistics(duck: Duck): Promise<PatternStatistics[]> {
  const sums = new Map<string, { n: number; adf: number; acf: number; f: number }>();
  let buf = new Float64Array(512);
  let len = 0;
  let current = -1;
  let currentPattern = '';
  const flush = () => {
    if (current < 0 || len < 8) return;
    const c = sequenceCharacteristics(buf.subarray(0, len));
    if (!Number.isFinite(c.adfStat) || !Number.isFinite(c.acf1) || !Number.isFinite(c.forecastability))
      return;
    const s = sums.get(currentPattern) ?? { n: 0, adf: 0, acf: 0, f: 0 };
    s.n++;
    s.adf += c.adfStat;
    s.acf += c.acf1;
    s.f += c.forecastability;
    sums.set(currentPattern, s);
  };
  await streamArrow(
    duck,
    `SELECT dense_rank() OVER (ORDER BY dataset, series_id) AS member, list_position(${sqlList(FINTSB_PATTERNS)}, pattern) AS p, ret
     FROM fintsb_rows WHERE ret IS NOT NULL ORDER BY dataset, series_id, step`,
    undefined,
    (batch) => {
      const member = batch.getChild('member')?.toArray() as Float64Array;
      const p = batch.getChild('p')?.toArray() as Float64Array;
      const ret = batch.getChild('ret')?.toArray() as Float64Array;
      for (let i = 0; i < member.length; i++) {
        if (member[i] !== current) {
          flush();
          current = member[i];
          currentPattern = FINTSB_PATTERNS[p[i] - 1];
          len = 0;
        }
        if (len === buf.length) {
          const bigger = new Float64Array(buf.length * 2);
          bigger.set(buf);
          buf = bigger;
        }
        buf[len++] = ret[i];
      }
    },
  );
  flush();
  const counts = await duck.all<{ pattern: string; datasets: bigint; series: bigint }>(
    'SELECT pattern, count(DISTINCT dataset) AS datasets, count(*) AS series FROM fintsb_members GROUP BY pattern',
  );
  return FINTSB_PATTERNS.map((pattern) => {
    const s = sums.get(pattern) ?? { n: 0, adf: Number.NaN, acf: Number.NaN, f: Number.NaN };
    const c = counts.find((x) => x.pattern === pattern);
    return {
      pattern,
      datasets: Number(c?.datasets ?? 0),
      series: Number(c?.series ?? 0),
      adf_stat: s.adf / s.n,
      acf1: s.acf / s.n,
      forecastability: s.f / s.n,
      split: '7:1:2' as const,
    };
  });
}

function sqlList(values: readonly string[]): string {
  return `[${values.map((v) => quoteLiteral(v)).join(', ')}]`;
}

async function describeOutput(
  duck: Duck,
  dir: string,
  path: string,
  table: string,
  timeColumn?: string,
): Promise<ManifestOutput> {
  const file = join(dir, ...path.split('/'));
  return manifestOutput(dir, {
    path,
    table,
    ...(await describeParquet(duck, file, [timeColumn ?? null, null])),
  });
}
