import { Duck } from '@asof/duck';
import { elapsedStamp, InputError } from '@asof/schema';
import { aggregateSplit } from './aggregate-split.ts';
import { aggregateUniverse } from './aggregate-universe.ts';
import { aggregateVintages, requireSeriesIds } from './aggregate-vintages.ts';
import { fintsbSections } from './fintsb-sections.ts';
import { identitySection } from './identity-section.ts';
import { openReportInputs, type ReportKind } from './open-report-inputs.ts';
import { questionsSections } from './questions-sections.ts';
import { type ReportDocument, renderReportHtml, type Section } from './render-report-html.ts';
import { scoringSections } from './scoring-sections.ts';
import { splitSections } from './split-sections.ts';
import {
  coverageSection,
  patternsSection,
  publicationLagSection,
  restatementsSection,
  revisionsSection,
  vintageViewSection,
  warningsSection,
} from './universe-sections.ts';
import { checkReportOutput, writeReportFile } from './write-report-file.ts';

export interface BuildReportOptions {
  manifestPath: string;
  resultsPath?: string;
  outPath: string;
  /** Series for the vintage view (universe manifests only). */
  series?: string[];
  /** As-of instants (ISO) for the vintage view; default: per series, from its revision instants. */
  asOf?: string[];
  log?: (line: string) => void;
}

export interface BuiltReport {
  path: string;
  kind: ReportKind;
  scoring: boolean;
  bytes: number;
  charts: number;
  seconds: number;
}

/** Builds the report document of a manifest (and results) without writing it. */
export async function buildReportDocument(
  options: Omit<BuildReportOptions, 'outPath'>,
): Promise<{ doc: ReportDocument; kind: ReportKind; scoring: boolean }> {
  const log = options.log ?? (() => {});
  const step = (what: string) => log(`${elapsedStamp()} ${what}`);
  const duck = await Duck.open({ threads: 2 });
  try {
    const inputs = await openReportInputs(options.manifestPath, duck, options.resultsPath);
    step(
      `verified and read ${inputs.manifest.outputs.length} file(s) of ${inputs.kind} ${inputs.manifest.dataset_id.slice(0, 12)}`,
    );
    const m = inputs.manifest;
    if (options.series?.length && inputs.kind !== 'universe') {
      throw new InputError(
        'REPORT_SERIES_NEEDS_UNIVERSE',
        `--series needs a universe manifest (this one is a ${inputs.kind}): the vintage view draws every vintage\n  hint: pass --manifest the universe's manifest.json`,
        { context: { file: options.manifestPath, field: 'kind', value: inputs.kind } },
      );
    }
    // Every --series named before any aggregation: a typo is refused at once with the nearest ids.
    if (options.series?.length) await requireSeriesIds(duck, options.series);
    for (const a of options.asOf ?? []) {
      if (!Number.isFinite(Date.parse(a))) {
        throw new InputError('USAGE', `--as-of ${a}: expected a date (YYYY-MM-DD) or an ISO instant`, {
          context: { field: 'as-of', value: a },
        });
      }
    }
    const sections: Section[] = [identitySection(m, options.manifestPath)];
    if (inputs.kind === 'universe') {
      const a = await aggregateUniverse(duck);
      step('aggregated the universe');
      sections.push(
        await coverageSection(a),
        await publicationLagSection(a),
        await revisionsSection(a),
        restatementsSection(a),
        await patternsSection(a),
        warningsSection(m, a.warnings),
      );
      if (options.series?.length) {
        const asOf = (options.asOf ?? []).map((x) => (/^\d{4}-\d{2}-\d{2}$/.test(x) ? `${x}T00:00:00Z` : x));
        const views = [];
        for (const id of options.series) views.push(await aggregateVintages(duck, id, asOf));
        sections.push(await vintageViewSection(views));
      }
    } else if (inputs.kind === 'questions') {
      sections.push(...(await questionsSections(inputs.questionScores, options.resultsPath ?? '')));
      step('question scores');
    } else {
      // A scoring report's leaderboard sections carry the split manifest's warnings (Warnings of the data).
      const warnings = inputs.results?.dataset_warnings.length ? [] : [warningsSection(m, null)];
      if (inputs.kind === 'split') {
        sections.push(...(await splitSections(m, await aggregateSplit(duck))), ...warnings);
        step('aggregated the split');
      } else {
        sections.push(...(await fintsbSections(duck)), ...warnings);
      }
    }
    if (inputs.results) {
      const horizons: Record<string, number> = {};
      for (const [f, h] of Object.entries(
        (m.config.horizons ?? {}) as Record<string, { prediction_length?: number }>,
      )) {
        if (h.prediction_length) horizons[f] = h.prediction_length;
      }
      sections.push(...(await scoringSections(inputs.results, options.resultsPath ?? '', horizons)));
      step('scoring sections');
    }
    step('charts rendered');
    const kindTitle = inputs.results
      ? 'scoring run'
      : inputs.questionScores
        ? 'question scores'
        : inputs.kind;
    return {
      kind: inputs.kind,
      scoring: Boolean(inputs.results ?? inputs.questionScores),
      doc: {
        title: `asof report — ${m.name} (${kindTitle})`,
        subtitle: `dataset_id ${m.dataset_id}${m.parent_dataset_id ? ` · parent ${m.parent_dataset_id}` : ''} · config ${m.config_sha256.slice(0, 12)}`,
        sections,
      },
    };
  } finally {
    duck.close();
  }
}

/** `asof report`: one self-contained HTML file for a universe, a split or a scoring run. */
export async function buildReport(options: BuildReportOptions): Promise<BuiltReport> {
  const t0 = performance.now();
  checkReportOutput(options.outPath, options);
  const { doc, kind, scoring } = await buildReportDocument(options);
  const html = renderReportHtml(doc);
  const { bytes, path } = await writeReportFile(options.outPath, html, options);
  const charts = doc.sections.reduce((n, s) => n + s.blocks.filter((b) => b.kind === 'chart').length, 0);
  return { path, kind, scoring, bytes, charts, seconds: (performance.now() - t0) / 1000 };
}
