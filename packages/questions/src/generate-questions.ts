import { join } from 'node:path';
import { isoToMicros, microsToIso } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import {
  finalizeDerivedManifest,
  openVerifiedManifest,
  parentInputs,
  type VerifiedManifest,
  writeDerivedDir,
  writeManifest,
} from '@asof/manifest';
import { InputError, type Manifest } from '@asof/schema';
import { buildInstances, type Instance } from './build-instances.ts';
import { generatePriceCandidates, PRICE_LOOKBACK_BARS } from './generate-price-candidates.ts';
import { generateRankCandidates, type RankDrops } from './generate-rank-candidates.ts';
import {
  generateFundCandidates,
  generateMacroEventCandidates,
  generateRevenueEventCandidates,
} from './generate-release-candidates.ts';
import type { GenerationContext, UniverseSeries } from './generation-context.ts';
import { loadQuestionData, type QuestionData } from './load-question-data.ts';
import { type Candidate, FAMILIES, type Family } from './question-candidate.ts';
import { revisionSummary } from './revision-summary.ts';
import { type SampleCounts, sampleCandidates } from './sample-candidates.ts';
import { writeQuestionFiles } from './write-question-files.ts';

export interface QuestionsOptions {
  manifestPath: string;
  outDir: string;
  /** Model knowledge cutoff c and run date r: ISO instants (a date is read by the caller). */
  modelCutoff: string;
  runDate: string;
  families?: Family[];
  /** Instances kept per family and window (default 50). */
  perFamily?: number;
  seed?: string;
  /** Bars of price history each instance's inputs reach back (default 260); null: the whole history. */
  priceLookbackBars?: number | null;
  createdBy?: { asof_version: string; git_commit: string | null; git_dirty: boolean | null };
  log?: (line: string) => void;
}

export interface QuestionsResult {
  manifest: Manifest;
  manifestPath: string;
}

export const DEFAULT_PER_FAMILY = 50;

/**
 * `asof questions`: FinForesight's VAL, RANK, EVT and FUND question instances for a model cutoff and run
 * date, generated from a verified universe as known at the run date, resolved on first releases, with the
 * baselines' answers and each instance's inputs as of its forecast instant, in a folder with its own
 * manifest (packages/questions/README.md; docs/decisions/0070).
 */
export async function generateQuestions(options: QuestionsOptions): Promise<QuestionsResult> {
  const cutoff = isoToMicros(options.modelCutoff, '--model-cutoff');
  const runDate = isoToMicros(options.runDate, '--run-date');
  if (cutoff > runDate) {
    throw new InputError(
      'QUESTIONS_CUTOFF_AFTER_RUN_DATE',
      `--model-cutoff ${options.modelCutoff} is after --run-date ${options.runDate}; a model cannot be run before its knowledge cutoff`,
    );
  }
  const perFamily = options.perFamily ?? DEFAULT_PER_FAMILY;
  const families = options.families ?? [...FAMILIES];
  const seed = options.seed ?? '0';
  const priceLookbackBars =
    options.priceLookbackBars === undefined ? PRICE_LOOKBACK_BARS : options.priceLookbackBars;
  const verified = await openVerifiedManifest(options.manifestPath);
  try {
    const manifest = await writeDerivedDir(
      verified,
      {
        outDir: options.outDir,
        manifestPath: options.manifestPath,
        command: 'asof questions',
        writes: 'questions',
      },
      async ({ dir, work }) => {
        const duck = await Duck.open({ threads: 2, tempDirectory: join(work, 'spill') });
        try {
          const data = await loadQuestionData(duck, verified, microsToIso(runDate));
          const ctx: GenerationContext = {
            cutoff,
            runDate,
            seed,
            spans: data.spans,
            entitySeries: await loadEntitySeries(duck, verified),
            priceLookbackBars,
          };
          const { instances, counts, rankDrops } = makeInstances(data, ctx, families, perFamily);
          const outputs = await writeQuestionFiles(duck, dir, instances, data.observationFiles);
          const m = finalizeDerivedManifest(verified.manifest, {
            suffix: 'questions',
            kind: 'questions',
            duckdbVersion: await duck.version(),
            createdBy: options.createdBy,
            config: {
              model_cutoff: microsToIso(cutoff),
              run_date: microsToIso(runDate),
              families,
              per_family: perFamily,
              seed,
              price_lookback_bars: priceLookbackBars ?? 'all',
              resolution_rule: 'first_release',
            },
            inputs: parentInputs(verified),
            outputs,
            warnings: verified.manifest.warnings,
            summary: questionsSummary(instances, counts, rankDrops),
          });
          writeManifest(join(dir, 'manifest.json'), m);
          options.log?.(`${instances.length} instance(s) written`);
          return m;
        } finally {
          duck.close();
        }
      },
      (m: Manifest) => m,
    );
    return { manifest, manifestPath: join(options.outDir, 'manifest.json') };
  } finally {
    verified.close();
  }
}

function makeInstances(data: QuestionData, ctx: GenerationContext, families: Family[], perFamily: number) {
  const closes = data.series.filter((s) => s.role === 'close');
  const macro = data.series.filter((s) => s.role === 'macro');
  const fund = data.series.filter((s) => s.role === 'fund');
  const want = new Set(families);
  const rankDrops: RankDrops = { subjects_without_target_bar: 0, dates_too_few_members: 0 };
  const price = generatePriceCandidates(closes, ctx, { val: want.has('VAL'), evt: want.has('EVT') });
  const strata: { family: Family; stratum: string; candidates: Candidate[] }[] = [];
  if (want.has('VAL'))
    strata.push({ family: 'VAL', stratum: 'close', candidates: price.filter((c) => c.family === 'VAL') });
  if (want.has('RANK'))
    strata.push({
      family: 'RANK',
      stratum: 'cross_section',
      candidates: generateRankCandidates(closes, ctx, rankDrops),
    });
  if (want.has('EVT')) {
    strata.push({ family: 'EVT', stratum: 'close', candidates: price.filter((c) => c.family === 'EVT') });
    strata.push({ family: 'EVT', stratum: 'macro', candidates: generateMacroEventCandidates(macro, ctx) });
    strata.push({ family: 'EVT', stratum: 'revenue', candidates: generateRevenueEventCandidates(fund, ctx) });
  }
  if (want.has('FUND'))
    strata.push({ family: 'FUND', stratum: 'fundamental', candidates: generateFundCandidates(fund, ctx) });
  const counts: SampleCounts = { candidates: {} };
  const kept = sampleCandidates(strata, ctx, perFamily, counts);
  const instances = buildInstances(kept);
  for (let k = 1; k < instances.length; k++) {
    if (instances[k].question.instance_id === instances[k - 1].question.instance_id) {
      throw new Error(
        `two question instances share the id ${instances[k].question.instance_id}: a generator made a duplicate`,
      );
    }
  }
  return { instances, counts, rankDrops };
}

/** entity_id → the universe's series of that entity (any source): where instances' inputs come from. */
async function loadEntitySeries(
  duck: Duck,
  verified: VerifiedManifest,
): Promise<Map<string, UniverseSeries[]>> {
  const file = verified.readPaths('series')[0];
  const rows = await duck.all<{ series_id: string; entity_id: string; source: string; frequency: string }>(
    `SELECT series_id, entity_id, source, frequency FROM read_parquet(${quoteLiteral(file)})
     WHERE entity_id IS NOT NULL ORDER BY entity_id, series_id`,
  );
  const map = new Map<string, UniverseSeries[]>();
  for (const r of rows) {
    const list = map.get(r.entity_id) ?? [];
    list.push({ seriesId: r.series_id, entityId: r.entity_id, source: r.source, frequency: r.frequency });
    map.set(r.entity_id, list);
  }
  return map;
}

/** The manifest summary: instances and clusters per family and window, what was left out, and revisions. */
function questionsSummary(instances: readonly Instance[], counts: SampleCounts, rankDrops: RankDrops) {
  const perWindow: Record<
    string,
    Record<string, { instances: number; clusters: number; resolved: number }>
  > = {};
  const clusters = new Map<string, Set<string>>();
  for (const i of instances) {
    const q = i.question;
    perWindow[q.family] ??= {};
    perWindow[q.family][q.window] ??= { instances: 0, clusters: 0, resolved: 0 };
    const cell = perWindow[q.family][q.window];
    cell.instances++;
    if (i.resolution.status === 'resolved') cell.resolved++;
    const key = `${q.family}|${q.window}`;
    const set = clusters.get(key) ?? new Set<string>();
    set.add(q.cluster_id);
    clusters.set(key, set);
    cell.clusters = set.size;
  }
  return {
    instances: instances.length,
    per_family_window: perWindow,
    candidates: counts.candidates,
    rank_left_out: rankDrops,
    revisions: revisionSummary(instances),
  };
}
