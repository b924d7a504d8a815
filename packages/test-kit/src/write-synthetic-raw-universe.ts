import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { usTradingDays } from '@asof/calendar';
import { generateSyntheticEdgar } from '@asof/source-edgar';
import { generateSyntheticAlfred, SYNTHETIC_ALFRED_TEMPLATES } from '@asof/source-fred';
import { generateSyntheticYahooCharts, type SyntheticChartSpec } from '@asof/source-prices';
import { fredCatalog } from '@asof/taxonomy';

/**
 * A raw-file universe at two dates, written by the sources' own synthetic generators in their raw formats
 * (companyfacts/submissions JSON, ALFRED observation JSON, Yahoo chart JSON with sidecars), for the
 * update and diff tests and packages/build/bench/update.ts. Stage 2 is stage 1 plus, and nothing else:
 * - prices: per instrument a second download (a recent window re-downloaded: the last `overlap` sessions of
 *   stage 1 again, then the new sessions up to `t2`); in instrument 0's window one past close is changed
 *   (a silent vendor restatement); one new instrument;
 * - EDGAR: one more fiscal year of filings for the first `newFilers` companies; company 2 files a 10-K/A
 *   restating one fiscal year's NetIncomeLoss;
 * - ALFRED: series 0 gets a vintage that revises one period and publishes a new one; series 1 gets a
 *   vintage withdrawing one value (".").
 * - membership: companies 1 and 3 registered their stock on an exchange (8-A12B) in both stages; in stage 2
 *   company 1 files a Form 25 (its listing ends). The index membership file `membership/index.csv` (the
 *   same in both stages) names instruments 0–2 (2 removed in 2021) and one entity without series.
 * What stage 2 injects is returned, so tests can check a diff against it.
 */
export interface SyntheticRawUniverseOptions {
  stage: 1 | 2;
  instruments?: number;
  companies?: number;
  fredSeries?: number;
  /** First session of every price history. */
  from?: string;
  /** Last session of the stage-1 download and of the stage-2 window. */
  t1?: string;
  t2?: string;
  /** Sessions of stage 1 the stage-2 window downloads again. */
  overlap?: number;
  /** Companies with a new fiscal year in stage 2. */
  newFilers?: number;
  /** First session of the instrument new in stage 2 (default `from`: a full history; later: a new listing). */
  newInstrumentFrom?: string;
  seed?: number;
}

export interface InjectedChanges {
  /** Price bars new in stage 2 (sessions after t1, per instrument of stage 1). */
  newSessions: string[];
  restatedBar: { seriesId: string; date: string; from: number; to: number };
  newInstrument: string;
  edgarRestatement: {
    cik: string;
    concept: string;
    fy: number;
    from: number;
    to: number;
    accn: string;
    filed: string;
  };
  newFilerCiks: string[];
  /** The company whose Form 25 (stage 2) ends its exchange listing. */
  delisted: { cik: string; accn: string; filed: string };
  alfredRevision: { seriesId: string; date: string; from: string; to: string; vintage: string };
  alfredNewPeriod: { seriesId: string; date: string; value: string; vintage: string };
  alfredWithdrawal: { seriesId: string; date: string; vintage: string };
}

const write = (path: string, text: string) => writeFileSync(path, text);

/** Writes `dir/{edgar,fred,prices}` and `dir/pipeline.json`; returns what stage 2 adds (also for stage 1). */
export function writeSyntheticRawUniverse(
  dir: string,
  options: SyntheticRawUniverseOptions,
): InjectedChanges {
  const o = {
    instruments: 4,
    companies: 4,
    fredSeries: 4,
    from: '2015-01-02',
    t1: '2024-05-31',
    t2: '2024-06-28',
    overlap: 5,
    newFilers: 1,
    seed: 20260101,
    ...options,
  };
  o.newInstrumentFrom ??= o.from;
  for (const sub of ['edgar', 'fred', 'prices', 'membership']) mkdirSync(join(dir, sub), { recursive: true });
  const prices = writePrices(join(dir, 'prices'), o);
  const edgar = writeEdgar(join(dir, 'edgar'), o);
  const fred = writeFred(join(dir, 'fred'), o);
  write(join(dir, MEMBERSHIP_FILE), membershipCsv(o.instruments));
  write(
    join(dir, 'pipeline.json'),
    `${JSON.stringify({
      name: 'raw-universe',
      eval_start: '2020-01-01',
      duckdb: { threads: 2, memory_limit: '4GB' },
      sources: {
        edgar: { raw_dir: 'edgar' },
        fred: { raw_dir: 'fred' },
        prices: { raw_dir: 'prices', membership: [MEMBERSHIP_FILE] },
      },
    })}\n`,
  );
  return { ...prices, ...edgar, ...fred };
}

const MEMBERSHIP_FILE = 'membership/index.csv';

/** An index of the first three instruments (the third removed in 2021) and an entity the universe lacks. */
function membershipCsv(instruments: number): string {
  const lines = ['entity_id,universe,action,effective_date,announced'];
  for (let i = 0; i < Math.min(3, instruments); i++)
    lines.push(`ticker:RAW${String(i).padStart(4, '0')},rawidx,add,2015-01-02,2014-12-19`);
  if (instruments > 2) lines.push('ticker:RAW0002,rawidx,remove,2021-06-01,2021-05-24T21:00:00Z');
  lines.push('ticker:GONE0001,rawidx,add,2015-01-02,2014-12-19');
  lines.push('ticker:GONE0001,rawidx,remove,2019-03-01,2019-02-15');
  return `${lines.join('\n')}\n`;
}

type Resolved = Required<Omit<SyntheticRawUniverseOptions, 'newInstrumentFrom'>> & {
  newInstrumentFrom?: string;
};

function chartSpecs(n: number): SyntheticChartSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    symbol: `RAW${String(i).padStart(4, '0')}`,
    kind: i % 7 === 3 ? ('etf' as const) : ('equity' as const),
    name: `Raw Universe Instrument ${i}`,
    startPrice: 20 + ((i * 37) % 180),
    drift: 0.03 + ((i * 13) % 10) / 100,
    volatility: 0.15 + ((i * 17) % 30) / 100,
    splits: i % 5 === 1 ? [{ exDate: '2018-06-04', ratio: 2 }] : [],
    quarterlyYield: i % 3 === 0 ? 0.004 : 0,
    baseVolume: 1_000_000 * (1 + (i % 9)),
  }));
}

interface YahooBody {
  chart: {
    result: {
      meta: { regularMarketTime: number };
      timestamp: number[];
      events: { splits?: Record<string, { date: number }>; dividends?: Record<string, { date: number }> };
      indicators: { quote: Record<string, (number | null)[]>[]; adjclose: { adjclose: number[] }[] };
    }[];
  };
}

/** Keeps the bars (and events) on or after `firstTs` (epoch seconds): a download of a recent window. */
function trimChart(text: string, firstTs: number): YahooBody {
  const body = JSON.parse(text) as YahooBody;
  const r = body.chart.result[0];
  const start = r.timestamp.findIndex((t) => t >= firstTs);
  r.timestamp = r.timestamp.slice(start);
  const q = r.indicators.quote[0];
  for (const k of Object.keys(q)) q[k] = q[k].slice(start);
  r.indicators.adjclose[0].adjclose = r.indicators.adjclose[0].adjclose.slice(start);
  for (const kind of ['splits', 'dividends'] as const) {
    const ev = r.events[kind];
    if (ev === undefined) continue;
    for (const [k, v] of Object.entries(ev)) if (v.date < firstTs) delete ev[k];
    if (Object.keys(ev).length === 0) delete r.events[kind];
  }
  return body;
}

function writePrices(dir: string, o: Resolved) {
  const specs = chartSpecs(o.instruments);
  const dl1 = `${nextDay(o.t1)}T01:00:00Z`;
  const dl2 = `${nextDay(o.t2)}T01:00:00Z`;
  const sessions1 = usTradingDays(o.from, o.t1);
  const newSessions = usTradingDays(nextDay(o.t1), o.t2);
  const windowStart = sessions1[sessions1.length - o.overlap];
  const writeChart = (fileName: string, text: string, meta: object) => {
    write(join(dir, fileName), text);
    write(join(dir, `${fileName}.meta.json`), JSON.stringify(meta));
  };
  for (const c of generateSyntheticYahooCharts({
    seed: o.seed,
    from: o.from,
    to: o.t1,
    downloadedAt: dl1,
    instruments: specs,
  })) {
    writeChart(c.fileName, c.text, c.meta);
  }
  // The restated bar: the first overlapping session's close of instrument 0, as downloaded in stage 1.
  const first = generateSyntheticYahooCharts({
    seed: o.seed,
    from: o.from,
    to: o.t1,
    downloadedAt: dl1,
    instruments: specs.slice(0, 1),
  })[0];
  const firstBody = JSON.parse(first.text) as YahooBody;
  const at = firstBody.chart.result[0].timestamp.findIndex(
    (t) => t >= Date.parse(`${windowStart}T13:30:00Z`) / 1000,
  );
  const quote = firstBody.chart.result[0].indicators.quote[0];
  const restatedFrom = quote.close[at] as number;
  // Inside the bar's low…high range, so the bar checks still pass it: only the close changed.
  const [lo, hi] = [quote.low[at] as number, quote.high[at] as number];
  let restatedTo = Math.round(((lo + hi) / 2) * 100) / 100;
  if (restatedTo === restatedFrom) restatedTo = Math.round((lo + (hi - lo) / 4) * 100) / 100;
  const newInstrument = `RAW${String(o.instruments).padStart(4, '0')}`;
  if (o.stage === 2) {
    const windowTs = Date.parse(`${windowStart}T00:00:00Z`) / 1000;
    const charts = generateSyntheticYahooCharts({
      seed: o.seed,
      from: o.from,
      to: o.t2,
      downloadedAt: dl2,
      instruments: chartSpecs(o.instruments),
    });
    const [listed] = generateSyntheticYahooCharts({
      seed: o.seed,
      from: o.newInstrumentFrom,
      to: o.t2,
      downloadedAt: dl2,
      instruments: chartSpecs(o.instruments + 1).slice(o.instruments),
    });
    writeChart(listed.fileName, listed.text, listed.meta);
    for (const [i, c] of charts.entries()) {
      const body = trimChart(c.text, windowTs);
      if (i === 0) body.chart.result[0].indicators.quote[0].close[0] = restatedTo;
      writeChart(c.fileName, JSON.stringify(body), c.meta);
    }
  }
  return {
    newSessions,
    restatedBar: {
      seriesId: `px:${specs[0].symbol}:close`,
      date: windowStart,
      from: restatedFrom,
      to: restatedTo,
    },
    newInstrument,
  };
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

type Json = Record<string, unknown>;

function writeEdgar(dir: string, o: Resolved) {
  const years = 8;
  const firstFy = 2016;
  const base = { seed: o.seed, companies: o.companies, firstFiscalYear: firstFy };
  const t1 = generateSyntheticEdgar({ ...base, fiscalYears: years });
  const t2 = o.stage === 2 ? generateSyntheticEdgar({ ...base, fiscalYears: years + 1 }) : t1;
  const cikOf = (c: number) => String(9_990_000_001 + c).padStart(10, '0');
  const newFilerCiks = Array.from({ length: Math.min(o.newFilers, o.companies) }, (_, c) => cikOf(c));
  const files = new Map<string, unknown>(t1.map((f) => [f.name, f.json]));
  if (o.stage === 2) {
    for (const f of t2)
      if (newFilerCiks.some((cik) => f.name.includes(`CIK${cik}`))) files.set(f.name, f.json);
  }
  // Company 2 (or the last one) restates NetIncomeLoss of one fiscal year in a 10-K/A filed after t1.
  const c = Math.min(2, o.companies - 1);
  const cik = cikOf(c);
  const factsName = [...files.keys()].find((n) => n.startsWith(`companyfacts_CIK${cik}`))!;
  const facts = structuredClone(files.get(factsName)) as Json;
  const ni = ((facts.facts as Json)['us-gaap'] as Json).NetIncomeLoss as { units: { USD: Json[] } };
  const fy = firstFy + 4;
  // The 10-K's own fiscal year (not a comparative, not a Q4 duration): the longest fact ending latest.
  const original = ni.units.USD.filter((f) => f.form === '10-K' && f.fy === fy).sort((a, b) =>
    a.end !== b.end ? (String(a.end) < String(b.end) ? 1 : -1) : String(a.start) < String(b.start) ? -1 : 1,
  )[0];
  const filed = nextDay(o.t1).slice(0, 8) + '14';
  const accn = `${cik}-24-900001`;
  const restatedTo = Math.round(((original.val as number) * 0.97) / 1e6) * 1e6;
  /** Adds a filing to the newest end of a company's submissions index. */
  const file = (c: number, f: { accn: string; form: string; filed: string; report: string }) => {
    const name = [...files.keys()].find((n) => n.startsWith(`submissions_CIK${cikOf(c)}_`))!;
    const subs = structuredClone(files.get(name)) as Json;
    const recent = (subs.filings as Json).recent as Record<string, unknown[]>;
    const row: Record<string, unknown> = {
      accessionNumber: f.accn,
      filingDate: f.filed,
      reportDate: f.report,
      acceptanceDateTime: `${f.filed}T16:05:00.000Z`,
      act: '34',
      form: f.form,
      fileNumber: '000-00000',
      filmNumber: '',
      items: '',
      core_type: f.form,
      size: 100_000,
      isXBRL: f.form.startsWith('10-K') ? 1 : 0,
      isInlineXBRL: f.form.startsWith('10-K') ? 1 : 0,
      primaryDocument: `${f.form.toLowerCase().replace(/[^a-z0-9]/g, '')}.htm`,
      primaryDocDescription: f.form,
    };
    for (const [k, v] of Object.entries(row)) recent[k] = [v, ...recent[k]];
    files.set(name, subs);
  };
  // Exchange registrations (under the periodic reports' file number), in both stages.
  const listed = [1, 3].filter((c) => c < o.companies);
  for (const c of listed)
    file(c, { accn: `${cikOf(c)}-16-800001`, form: '8-A12B', filed: '2016-01-15', report: '' });
  const delisted = { cik: cikOf(listed[0] ?? 0), accn: `${cikOf(listed[0] ?? 0)}-24-800002`, filed };
  if (o.stage === 2) {
    ni.units.USD.push({ ...original, val: restatedTo, accn, form: '10-K/A', filed });
    files.set(factsName, facts);
    file(c, { accn, form: '10-K/A', filed, report: String(original.end) });
    if (listed.length > 0) file(listed[0], { accn: delisted.accn, form: '25', filed, report: '' });
  }
  for (const [name, json] of files) write(join(dir, name), `${JSON.stringify(json)}\n`);
  return {
    newFilerCiks,
    delisted,
    edgarRestatement: {
      cik,
      concept: 'NetIncomeLoss',
      fy,
      from: original.val as number,
      to: restatedTo,
      accn,
      filed,
    },
  };
}

function writeFred(dir: string, o: Resolved) {
  const syn = generateSyntheticAlfred({ seed: o.seed, start: '2005-01-01', end: o.t1, count: o.fredSeries });
  // Synthetic ids are not in the FRED catalog a raw folder is mapped with: each takes a catalog id of its
  // frequency (the file names and bodies are renamed), so the raw folder builds like real downloads.
  const catalog = fredCatalog();
  const used = new Set<string>();
  const rename = new Map<string, string>();
  for (const id of syn.series) {
    const t = SYNTHETIC_ALFRED_TEMPLATES.find((x) => id.startsWith(x.id))!;
    const target = catalog.find(
      (e) => e.frequency === t.frequency && !used.has(e.series_id) && /^[A-Z0-9]+$/.test(e.series_id),
    )!;
    used.add(target.series_id);
    rename.set(id, target.series_id);
  }
  const order = [...rename.keys()].sort((a, b) => b.length - a.length);
  const renamed = (text: string) => {
    let t = text;
    for (const id of order)
      t = t
        .replaceAll(`_${id}_`, `_${rename.get(id)}_`)
        .replaceAll(`_${id}.`, `_${rename.get(id)}.`)
        .replaceAll(`"id":"${id}"`, `"id":"${rename.get(id)}"`);
    return t;
  };
  const dec = new TextDecoder();
  const [s0, s1] = syn.series.map((id) => rename.get(id)!);
  const vintage = nextDay(o.t1);
  let revision = { seriesId: `fred:${s0}`, date: '', from: '', to: '', vintage };
  let newPeriod = { seriesId: `fred:${s0}`, date: '', value: '', vintage };
  let withdrawal = { seriesId: `fred:${s1}`, date: '', vintage };
  for (const f of syn.files) {
    const name = renamed(f.name);
    let text = renamed(dec.decode(f.bytes));
    const obs = /series_observations_([A-Z0-9]+)_all_vintages/.exec(name)?.[1];
    if (obs === s0 || obs === s1) {
      const body = JSON.parse(text) as {
        observations: { realtime_start: string; realtime_end: string; date: string; value: string }[];
      };
      const open = body.observations.filter((r) => r.realtime_end === '9999-12-31' && r.value !== '.');
      const dates = [...new Set(body.observations.map((r) => r.date))].sort();
      if (obs === s0) {
        const target = open[Math.floor(open.length / 2)];
        const to = (Number(target.value) * 1.002).toFixed(target.value.split('.')[1]?.length ?? 0);
        revision = { ...revision, date: target.date, from: target.value, to };
        const last = dates[dates.length - 1];
        const next = addPeriod(
          last,
          dates.length > 1 && Number(dates[1].slice(5, 7)) - Number(dates[0].slice(5, 7)) === 3 ? 3 : 1,
        );
        newPeriod = { ...newPeriod, date: next, value: open.find((r) => r.date === last)!.value };
        if (o.stage === 2) {
          target.realtime_end = prevDay(vintage);
          body.observations.push({
            realtime_start: vintage,
            realtime_end: '9999-12-31',
            date: target.date,
            value: to,
          });
          body.observations.push({
            realtime_start: vintage,
            realtime_end: '9999-12-31',
            date: next,
            value: newPeriod.value,
          });
        }
      } else {
        const target = open[Math.floor(open.length / 3)];
        withdrawal = { ...withdrawal, date: target.date };
        if (o.stage === 2) {
          target.realtime_end = prevDay(vintage);
          body.observations.push({
            realtime_start: vintage,
            realtime_end: '9999-12-31',
            date: target.date,
            value: '.',
          });
        }
      }
      text = JSON.stringify(body);
    }
    write(join(dir, name), text);
  }
  return { alfredRevision: revision, alfredNewPeriod: newPeriod, alfredWithdrawal: withdrawal };
}

function prevDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

function addPeriod(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}
