import { localDateOfMicros } from '@asof/calendar';
import { InputError, implausibleValueProblem, MAX_ABS_VALUE, zodInputError } from '@asof/schema';
import type { DividendEvent, ParsedPriceFile, ParseIssue, PriceBar, SplitEvent } from './price-types.ts';
import { YahooChartPayload } from './yahoo-chart-payload.ts';

/**
 * Parses a Yahoo v8 chart response body. Timestamps are the regular-session open (13:30/14:30 UTC for New
 * York); the trading date is that instant's date in `meta.exchangeTimezoneName`. OHLC and volume are
 * split-adjusted up to the download (adjustment `split`); `adjclose` also folds in dividends and is not
 * read, because it leaks future dividends into past values. Yahoo's dividend amounts are split-adjusted
 * like the prices.
 */
export function parseYahooChart(text: string, where = 'yahoo chart'): ParsedPriceFile {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('<')) {
    throw new InputError(
      'YAHOO_NOT_JSON',
      `${where}: expected Yahoo chart JSON, got an HTML page (the site refused or redirected the request); download again or supply the JSON file`,
      { context: { where } },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new InputError('YAHOO_BAD_JSON', `${where}: not valid JSON (${(cause as Error).message})`, {
      context: { where },
      cause,
    });
  }
  const parsed = YahooChartPayload.safeParse(json);
  if (!parsed.success) {
    throw zodInputError('YAHOO_BAD_PAYLOAD', where, parsed.error, {
      what: 'Yahoo v8 chart response',
      hint: 'expected {chart:{result:[{meta,timestamp,indicators:{quote:[…]}}]}}',
      context: { where },
    });
  }
  const chart = parsed.data.chart;
  if (chart.error) {
    throw new InputError(
      'YAHOO_CHART_ERROR',
      `${where}: Yahoo returned an error instead of data: ${chart.error.code ?? '?'}: ${chart.error.description ?? ''}`,
      { context: { where, code: chart.error.code } },
    );
  }
  const result = chart.result?.[0];
  if (!result) {
    throw new InputError(
      'YAHOO_NO_RESULT',
      `${where}: chart.result is empty; expected one result for the symbol`,
      {
        context: { where },
      },
    );
  }
  const tz = result.meta.exchangeTimezoneName;
  const ts = result.timestamp ?? [];
  const q = result.indicators.quote[0];
  const issues: ParseIssue[] = [];
  const columns = { open: q.open, high: q.high, low: q.low, close: q.close, volume: q.volume };
  for (const [field, arr] of Object.entries(columns)) {
    if (arr && arr.length !== ts.length) {
      throw new InputError(
        'YAHOO_LENGTH_MISMATCH',
        `${where}: indicators.quote[0].${field} has ${arr.length} values but there are ${ts.length} timestamps`,
        { context: { where, field, actual: arr.length, expected: ts.length } },
      );
    }
  }
  const bars: PriceBar[] = new Array(ts.length);
  const valueAt = (field: keyof typeof columns, i: number, date: string): number | null => {
    const v = columns[field]?.[i] ?? null;
    if (v !== null && Math.abs(v) >= MAX_ABS_VALUE) {
      throw new InputError(
        'YAHOO_IMPLAUSIBLE_VALUE',
        `${where}: indicators.quote[0].${field}[${i}] (${date}): ${implausibleValueProblem(v)}; re-download the chart`,
        { context: { where, field, index: i, value: v } },
      );
    }
    return v;
  };
  for (let i = 0; i < ts.length; i++) {
    const date = localDateOfMicros(ts[i] * 1_000_000, tz);
    bars[i] = {
      date,
      open: valueAt('open', i, date),
      high: valueAt('high', i, date),
      low: valueAt('low', i, date),
      close: valueAt('close', i, date),
      volume: valueAt('volume', i, date),
      row: i + 1,
    };
  }
  const splits: SplitEvent[] = [];
  for (const s of Object.values(result.events?.splits ?? {})) {
    splits.push({ exDate: localDateOfMicros(s.date * 1_000_000, tz), ratio: s.numerator / s.denominator });
  }
  const dividends: DividendEvent[] = [];
  for (const d of Object.values(result.events?.dividends ?? {})) {
    if (!(d.amount > 0)) {
      issues.push({
        code: 'NON_POSITIVE_DIVIDEND',
        row: 0,
        message: `dividend of ${d.amount} at ${d.date} is not positive; skipped`,
      });
      continue;
    }
    if (implausibleValueProblem(d.amount) !== null) {
      throw new InputError(
        'YAHOO_IMPLAUSIBLE_VALUE',
        `${where}: events.dividends (${d.date}).amount: ${implausibleValueProblem(d.amount)}; re-download the chart`,
        { context: { where, value: d.amount } },
      );
    }
    dividends.push({ exDate: localDateOfMicros(d.date * 1_000_000, tz), amount: d.amount });
  }
  splits.sort((a, b) => (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : 0));
  dividends.sort((a, b) => (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : 0));
  const meta = result.meta;
  return {
    format: 'yahoo_chart',
    symbol: meta.symbol,
    currency: meta.currency ?? null,
    timeZone: tz,
    instrumentType: meta.instrumentType ?? null,
    name: meta.longName ?? meta.shortName ?? null,
    bars,
    splits,
    dividends,
    splitsListed: result.events?.splits !== undefined,
    adjustment: 'split',
    marketTimeMicros: typeof meta.regularMarketTime === 'number' ? meta.regularMarketTime * 1_000_000 : null,
    issues,
  };
}
