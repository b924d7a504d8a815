import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localDateOfMicros } from '@asof/calendar';
import { BIGINT, type Duck, listValue, VARCHAR } from '@asof/duck';
import {
  AccountingTally,
  type AtomicSink,
  type AvailableAtBasis,
  type BuildWarning,
  CollectingSink,
  type CorporateActionRow,
  type IngestAccounting,
  type MembershipRow,
  type Micros,
  type ObservationRow,
  type RawInput,
} from '@asof/schema';
import {
  accountBars,
  checkDownloadQuality,
  corporateActionRow,
  createSessionCloser,
  type DownloadPreparation,
  defaultPriceCalendar,
  type EntitySplit,
  ListingSpan,
  type ListingSpanState,
  type ParsedPriceFile,
  PRICE_FIELDS,
  type PriceQualitySummaryRow,
  PriceVintageEmitter,
  parseStooqCsv,
  parseYahooChart,
  prepareDownload,
  priceQualityRow,
  priceSeriesId,
} from '@asof/source-prices';
import type { PriceField } from '@asof/taxonomy';
import type { PriceEntity, PriceFileInfo } from './update-price-entities.ts';

/**
 * The append path of `asof update` for a price instrument whose OLD files are unchanged and which has new
 * downloads: instead of reading every download again, the new ones are mapped against the state OLD's rows
 * give (the latest value and availability per series and timestamp), exactly as mapPricesToAtomic maps a
 * later download after the earlier ones. It applies only where that state is all a later download depends
 * on; every condition is checked, and an instrument that fails one is read again in full (`declined`).
 * Conditions: every download's instant is recorded and the new ones come after every OLD download and every
 * OLD row; the new files sort after OLD's by name (the reader takes name, source, kind, currency from the
 * first file by name); they list no split the instrument did not have, and the pipeline's split list (in
 * OLD's sidecars) covers them, so no split-coverage warning can change; no total-return index (it is
 * recomputed from every close); Yahoo chart JSON or Stooq CSV only. tests/update-diff.test.ts checks the
 * result against a full build byte for byte.
 */

/** mapPricesToAtomic's default revisionTolerance (the prices source passes none). */
const REVISION_TOLERANCE = 1e-6;

export interface AppendedEntity {
  symbol: string;
  rows: ObservationRow[];
  /** OLD rows at or after each series' cut: staged before `rows`, so the models see whole histories. */
  restage: ObservationRow[];
  /** Per series, the first timestamp whose OLD rows are re-staged (OLD's rows before it are reused). */
  cuts: Map<string, Micros>;
  actions: CorporateActionRow[];
  /** The instrument's listing span over all its downloads (price_bars rows), as mapPricesToAtomic emits it. */
  membership: MembershipRow[];
  warnings: BuildWarning[];
  inputs: RawInput[];
  /** The appended files' accounting, as the prices reader gives it (accountBars). */
  accounting: IngestAccounting[];
  quality: PriceQualitySummaryRow[];
}

export type AppendOutcome =
  | { ok: true; entity: AppendedEntity }
  | { ok: false; symbol: string; declined: string };

export interface AppendContext {
  duck: Duck;
  rawDir: string;
  /** OLD's read paths. */
  old: { series: string; observations: string[]; corporateActions: string[]; membership: string };
  totalReturn: boolean;
  vendorLagMicros: number;
}

interface OldSeries {
  series_id: string;
  source: string;
  entity_id: string;
  entity_name: string;
  currency: string | null;
  max_available_at: bigint | null;
  max_timestamp: bigint | null;
}

interface Prepared {
  entity: PriceEntity;
  family: 'px' | 'pxadj';
  olds: PriceFileInfo[];
  news: { info: PriceFileInfo; parsed: ParsedPriceFile }[];
  kind: string;
  cut: Micros;
}

interface OldAction {
  entity_id: string;
  ex_date: string;
  kind: string;
  value: number;
  source_ref: string;
}

/** The checks that need no OLD rows, and the new files parsed; a string says why the path does not apply. */
function prepare(entity: PriceEntity, ctx: AppendContext): Prepared | string {
  const families = new Set(entity.files.map((f) => f.family));
  if (families.size !== 1) return 'both as-traded and vendor-adjusted files';
  const family = entity.files[0].family;
  if (ctx.totalReturn && family === 'px') return 'a total-return index is recomputed from every close';
  const addedNames = new Set(entity.added.map((f) => f.name));
  const olds = entity.files.filter((f) => !addedNames.has(f.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
  const added = [...entity.added].sort((a, b) => (a.downloadedAt ?? 0) - (b.downloadedAt ?? 0));
  for (const f of entity.files) {
    if (f.format !== 'yahoo_chart' && f.format !== 'stooq_csv') return `${f.name}: ${f.format} is read again`;
    if (f.downloadedAt === null) return `${f.name}: no recorded download time`;
    if (f.timeZone === null) return `${f.name}: no exchange time zone in its head`;
  }
  const lastOldName = olds[olds.length - 1].name;
  if (added.some((f) => f.name < lastOldName)) return 'a new file sorts before an old one';
  const lastOld = Math.max(...olds.map((f) => f.downloadedAt!));
  for (let i = 0; i < added.length; i++) {
    const prev = i === 0 ? lastOld : added[i - 1].downloadedAt!;
    if (!(added[i].downloadedAt! > prev))
      return `${added[i].name}: not downloaded after the earlier downloads`;
  }
  // The reader takes the kind from the first file by name that gives one (sidecar, or Yahoo's instrument type).
  let kind: string | null = null;
  for (const f of olds) {
    if (f.sidecar?.meta.kind) {
      kind = f.sidecar.meta.kind;
      break;
    }
    if (f.format === 'yahoo_chart') return `${f.name}: kind only in the chart body`;
  }
  if (kind === null) {
    if (added.some((f) => f.sidecar?.meta.kind !== undefined || f.format === 'yahoo_chart'))
      return 'the new file would set the kind';
    kind = 'equity';
  }
  // Fields the reader takes from the first sidecar that has them: a new file may not be the first.
  for (const field of ['name', 'currency', 'entity_id', 'source'] as const) {
    if (
      added.some((f) => f.sidecar?.meta[field] !== undefined) &&
      !olds.some((f) => f.sidecar?.meta[field] !== undefined)
    )
      return `a new sidecar would set ${field}`;
  }
  if (family === 'px' && !olds.some((f) => f.sidecar?.meta.splits !== undefined))
    return 'no split list from the pipeline (split-coverage warnings could change)';
  const tz = olds[0].timeZone!;
  if (entity.files.some((f) => f.timeZone !== tz)) return 'files in different time zones';
  const news = added.map((info) => {
    const text = readFileSync(join(ctx.rawDir, info.name), 'utf8');
    const parsed =
      info.format === 'yahoo_chart'
        ? parseYahooChart(text, info.name)
        : parseStooqCsv(text, info.name, { symbol: info.sidecar?.meta.symbol ?? entity.symbol });
    return { info, parsed };
  });
  const closer = createSessionCloser(defaultPriceCalendar(kind, tz), tz);
  let cut = Number.POSITIVE_INFINITY;
  for (const n of news) {
    if (n.parsed.timeZone !== tz) return `${n.info.name}: another time zone`;
    for (const b of n.parsed.bars) cut = Math.min(cut, closer(b.date));
  }
  return { entity, family, olds, news, kind, cut };
}

/** OLD's rows and actions the append path needs, for every candidate at once (one scan of each table). */
async function loadOld(prepared: Prepared[], ctx: AppendContext) {
  const ids: string[] = [];
  const cutOf = new Map<string, number>();
  for (const p of prepared)
    for (const f of PRICE_FIELDS) {
      const id = priceSeriesId(p.entity.symbol, f, { vendorAdjusted: p.family === 'pxadj' });
      ids.push(id);
      cutOf.set(id, p.cut);
    }
  await ctx.duck.run('CREATE OR REPLACE TABLE append_cuts (series_id VARCHAR, cut_us BIGINT)');
  await ctx.duck.appendColumns(
    'append_cuts',
    [VARCHAR, BIGINT],
    [
      [...cutOf.keys()],
      [...cutOf.values()].map((c) => BigInt(Number.isFinite(c) ? c : Number.MAX_SAFE_INTEGER)),
    ],
  );
  const files = listValue(ctx.old.observations);
  const series = await ctx.duck.all<OldSeries>(
    `WITH latest AS (
       SELECT series_id, epoch_us(max(available_at)) AS max_available_at,
              epoch_us(max("timestamp")) AS max_timestamp FROM read_parquet($files)
       WHERE series_id IN (SELECT series_id FROM append_cuts) GROUP BY series_id
     )
     SELECT s.series_id, s.source, s.entity_id, s.entity_name, s.currency, l.max_available_at, l.max_timestamp
     FROM read_parquet($series) AS s LEFT JOIN latest AS l USING (series_id)
     WHERE s.series_id IN (SELECT series_id FROM append_cuts)`,
    { series: ctx.old.series, files },
  );
  const rows = await ctx.duck.all<{
    series_id: string;
    ts: bigint;
    period_start: bigint | null;
    available_at: bigint;
    value: number | null;
    available_at_basis: AvailableAtBasis;
    source_ref: string;
  }>(
    `SELECT o.series_id, epoch_us(o."timestamp") AS ts, epoch_us(o.period_start) AS period_start,
            epoch_us(o.available_at) AS available_at, o.value, o.available_at_basis, o.source_ref
     FROM read_parquet($files) AS o JOIN append_cuts AS c USING (series_id)
     WHERE epoch_us(o."timestamp") >= c.cut_us
     ORDER BY o.series_id, o."timestamp", o.available_at`,
    { files },
  );
  const entityIds = [...new Set(series.map((s) => s.entity_id))];
  const actions =
    ctx.old.corporateActions.length === 0 || entityIds.length === 0
      ? []
      : await ctx.duck.all<OldAction>(
          `SELECT entity_id, strftime(ex_date, '%Y-%m-%d') AS ex_date, kind, value, source_ref
           FROM read_parquet($files) WHERE entity_id IN (SELECT unnest($ids))
           ORDER BY entity_id, ex_date, kind`,
          { files: listValue(ctx.old.corporateActions), ids: listValue(entityIds) },
        );
  const listing =
    entityIds.length === 0
      ? []
      : await ctx.duck.all<OldListingRow>(
          `SELECT entity_id, epoch_us("from") AS from_us, epoch_us("to") AS to_us,
                  epoch_us(available_at) AS available_at_us, source_ref, strftime(effective_from, '%Y-%m-%d') AS effective_from,
                  strftime(effective_to, '%Y-%m-%d') AS effective_to
           FROM read_parquet($file) WHERE source = 'price_bars' AND entity_id IN (SELECT unnest($ids))
           ORDER BY entity_id, "to" NULLS FIRST`,
          { file: ctx.old.membership, ids: listValue(entityIds) },
        );
  await ctx.duck.run('DROP TABLE append_cuts');
  return { series, rows, actions, listing };
}

interface OldListingRow {
  entity_id: string;
  from_us: bigint | null;
  to_us: bigint | null;
  available_at_us: bigint | null;
  source_ref: string;
  effective_from: string | null;
  effective_to: string | null;
}

/**
 * emitListingSpan's state after OLD's downloads: the first bar from OLD's open price_bars row of the
 * entity, the last bar from OLD's rows of the open/high/low/close series (a bar counts for the span when
 * one of them is set, and the first value at a timestamp is always a row). The closing row, when OLD has
 * one, must agree (it is missing when no download came after the last bar, or when it lost to the open row
 * on the same instant: one vendor-adjusted download). Null when the rows are of more than one span
 * (another instrument of the entity) or disagree: the instrument is read again.
 */
function oldListingSpan(rows: OldListingRow[], lastBar: Micros | null, tz: string): ListingSpanState | null {
  const open = rows.filter((r) => r.to_us === null);
  const closing = rows.filter((r) => r.to_us !== null);
  if (open.length !== 1 || closing.length > 1 || lastBar === null) return null;
  const o = open[0];
  if (o.from_us === null || o.available_at_us === null || o.effective_from === null) return null;
  const last = { date: localDateOfMicros(lastBar, tz), ts: lastBar };
  const c = closing[0];
  if (
    c !== undefined &&
    (c.from_us !== o.from_us || Number(c.to_us) !== last.ts + 1 || c.effective_to !== last.date)
  )
    return null;
  return {
    first: {
      date: o.effective_from,
      ts: Number(o.from_us),
      at: Number(o.available_at_us),
      ref: o.source_ref,
    },
    last,
  };
}

/** Maps the new downloads of each candidate; candidates that fail a condition come back declined. */
export async function appendPriceDownloads(
  entities: PriceEntity[],
  ctx: AppendContext,
): Promise<AppendOutcome[]> {
  const out: AppendOutcome[] = [];
  const prepared: Prepared[] = [];
  for (const e of entities) {
    const p = prepare(e, ctx);
    if (typeof p === 'string') out.push({ ok: false, symbol: e.symbol, declined: p });
    else prepared.push(p);
  }
  if (prepared.length === 0) return out;
  const old = await loadOld(prepared, ctx);
  const listingOf = new Map<string, OldListingRow[]>();
  for (const r of old.listing) listingOf.set(r.entity_id, [...(listingOf.get(r.entity_id) ?? []), r]);
  const seriesOf = new Map(old.series.map((s) => [s.series_id, s]));
  const rowsOf = new Map<string, ObservationRow[]>();
  for (const r of old.rows) {
    const list = rowsOf.get(r.series_id) ?? [];
    const base = {
      series_id: r.series_id,
      timestamp: Number(r.ts),
      period_start: r.period_start === null ? null : Number(r.period_start),
      available_at: Number(r.available_at),
      available_at_basis: r.available_at_basis,
      source_ref: r.source_ref,
    };
    list.push({ ...base, value: r.value as number });
    rowsOf.set(r.series_id, list);
  }
  for (const p of prepared) {
    const result = mapAppended(p, ctx, seriesOf, rowsOf, old.actions, listingOf);
    out.push(
      typeof result === 'string'
        ? { ok: false, symbol: p.entity.symbol, declined: result }
        : { ok: true, entity: result },
    );
  }
  return out;
}

/** A new sidecar or download that would set another name, entity or currency than OLD's: why, or null. */
function checkAppendedIdentity(p: Prepared, close: OldSeries): string | null {
  for (const n of p.news) {
    const m = n.info.sidecar?.meta;
    if (m?.name !== undefined && m.name !== close.entity_name) return `${n.info.name}: another name`;
    if (m?.entity_id !== undefined && m.entity_id !== close.entity_id)
      return `${n.info.name}: another entity_id`;
    if (m?.currency !== undefined && m.currency !== close.currency) return `${n.info.name}: another currency`;
    // Without a sidecar name or currency the reader takes the first download's: OLD's, unless none had one.
    if (close.entity_name === p.entity.symbol && n.parsed.name !== null && n.parsed.name !== p.entity.symbol)
      return `${n.info.name}: would name the instrument`;
    if (close.currency === null && n.parsed.currency !== null) return `${n.info.name}: would set a currency`;
  }
  return null;
}

/**
 * The instrument's splits (OLD's split actions, which collectEntitySplits gave over OLD's downloads) and a
 * new download's that must leave them as they are: the same ratios, no new source, no pipeline override.
 * A string says why not.
 */
function appendedSplits(p: Prepared, actions: OldAction[]): EntitySplit[] | string {
  const splits = actions
    .filter((a) => a.kind === 'split')
    .map((a) => ({ exDate: a.ex_date, ratio: a.value, sourceRef: a.source_ref, listedBy: a.source_ref }));
  if (p.family === 'pxadj') return splits;
  const pipelineSplits = new Map<string, number>();
  for (const f of p.olds)
    for (const s of f.sidecar?.meta.splits ?? [])
      if (!pipelineSplits.has(s.ex_date)) pipelineSplits.set(s.ex_date, s.ratio);
  for (const n of p.news) {
    for (const s of n.info.sidecar?.meta.splits ?? [])
      if (pipelineSplits.get(s.ex_date) !== s.ratio) return `${n.info.name}: its sidecar lists another split`;
    for (const s of n.parsed.splits) {
      const known = splits.find((x) => x.exDate === s.exDate);
      if (known === undefined || Math.abs(known.ratio - s.ratio) > 1e-9 * Math.max(known.ratio, s.ratio))
        return `${n.info.name}: lists a split the instrument did not have`;
      if (known.sourceRef === 'pipeline:known_splits')
        return `${n.info.name}: would become the split's source`;
      const listed = pipelineSplits.get(s.exDate);
      if (listed !== undefined && listed !== s.ratio) return `${n.info.name}: a split the pipeline overrides`;
    }
  }
  return splits;
}

/** The new file and its sidecar as raw inputs, as the prices reader lists them. */
function addAppendedInputs(sink: AtomicSink, info: PriceFileInfo): void {
  sink.addInput({
    source: `prices:${info.format === 'yahoo_chart' ? 'yahoo' : 'stooq'}`,
    key: info.name,
    sha256: info.sha256,
    bytes: info.bytes,
  });
  if (info.sidecar !== null)
    sink.addInput({
      source: 'prices:sidecar',
      key: info.sidecar.name,
      sha256: info.sidecar.sha256,
      bytes: info.sidecar.bytes,
    });
}

/**
 * The new downloads of one instrument mapped with mapPricesToAtomic's own steps (prepareDownload,
 * checkDownloadQuality, ListingSpan, PriceVintageEmitter), their state seeded with what OLD's rows give.
 */
function mapAppended(
  p: Prepared,
  ctx: AppendContext,
  seriesOf: Map<string, OldSeries>,
  rowsOf: Map<string, ObservationRow[]>,
  oldActions: OldAction[],
  listingOf: Map<string, OldListingRow[]>,
): AppendedEntity | string {
  const symbol = p.entity.symbol;
  const vendorAdjusted = p.family === 'pxadj';
  const ids = Object.fromEntries(
    PRICE_FIELDS.map((f) => [f, priceSeriesId(symbol, f, { vendorAdjusted })]),
  ) as Record<PriceField, string>;
  const meta = PRICE_FIELDS.map((f) => seriesOf.get(ids[f]));
  if (meta.some((m) => m === undefined)) return 'OLD lacks one of its five series';
  const close = seriesOf.get(ids.close)!;
  const lastOldRow = Math.max(...meta.map((m) => Number(m!.max_available_at ?? 0)));
  if (!(p.news[0].info.downloadedAt! > lastOldRow)) return 'a new download is not later than every OLD row';
  const identity = checkAppendedIdentity(p, close);
  if (identity !== null) return identity;
  const tz = p.olds[0].timeZone!;
  const calendar = defaultPriceCalendar(p.kind, tz);
  const allDays = calendar === 'all_days';
  const sessionClose = createSessionCloser(calendar, tz);
  const entityId = close.entity_id;
  const barFields = meta.slice(0, 4).map((m) => m!.max_timestamp);
  const lastBar = barFields.some((t) => t !== null)
    ? Math.max(...barFields.map((t) => Number(t ?? -Infinity)))
    : null;
  const start = oldListingSpan(listingOf.get(entityId) ?? [], lastBar, tz);
  if (start === null) return 'its listing span in OLD is not one instrument’s';
  const actions = oldActions.filter((a) => a.entity_id === entityId);
  const splits = appendedSplits(p, actions);
  if (typeof splits === 'string') return splits;

  const sink = new CollectingSink();
  let conflict: string | null = null;
  const emitter = new PriceVintageEmitter(sink, {
    lagMicros: ctx.vendorLagMicros,
    tolerance: REVISION_TOLERANCE,
    timeZone: tz,
    firstAtDownload: vendorAdjusted,
    onConflict: (c) => {
      conflict ??= `${c.seriesId}: a new value not after the one it revises`;
    },
  });
  const restage: ObservationRow[] = [];
  const cuts = new Map<string, Micros>();
  for (const f of PRICE_FIELDS) {
    cuts.set(ids[f], p.cut);
    for (const r of rowsOf.get(ids[f]) ?? []) {
      restage.push(r);
      emitter.know(r.series_id, r.timestamp, r.value, r.available_at);
    }
  }
  const span = new ListingSpan(
    { lag: ctx.vendorLagMicros, vendorAdjustedAtDownload: vendorAdjusted, sessionClose },
    start,
  );
  const prep: DownloadPreparation = {
    symbol,
    timeZone: tz,
    allDays,
    splits: vendorAdjusted ? null : splits,
    dividendsByDate: new Map(
      actions
        .filter((a) => a.kind === 'dividend')
        .map((a) => [a.ex_date, { amount: a.value, ref: a.source_ref }]),
    ),
  };
  const quality: PriceQualitySummaryRow[] = [];
  for (const { info, parsed } of p.news) {
    const d = { parsed, downloadedAt: info.downloadedAt!, sourceRef: info.sha256, where: info.name };
    addAppendedInputs(sink, info);
    const { where, bars, newDividends } = prepareDownload(d, prep, sink);
    for (const ex of newDividends)
      sink.addCorporateAction(
        corporateActionRow(entityId, 'dividend', ex, prep.dividendsByDate.get(ex)!.amount, d.sourceRef, {
          timeZone: tz,
          allDays,
        }),
      );
    const checked = checkDownloadQuality(
      bars,
      { calendar, splits: vendorAdjusted ? [] : splits, where },
      sink,
    );
    const tally = new AccountingTally('prices', info.name, 'bar');
    accountBars(tally, checked.report);
    sink.addAccounting(tally.entry());
    quality.push(priceQualityRow(symbol, p.family, where, checked.report));
    span.add(d, checked.bars);
    emitter.emitBars(checked.bars, ids, d, { sessionClose, isIndex: p.kind.endsWith('_index') });
    if (conflict !== null) return conflict;
  }
  for (const m of span.rows(entityId)) sink.addMembership(m);
  return {
    symbol,
    rows: sink.observations,
    restage,
    cuts,
    actions: sink.corporateActions,
    membership: sink.memberships,
    warnings: sink.warnings,
    inputs: sink.inputs,
    accounting: sink.accounting,
    quality,
  };
}
