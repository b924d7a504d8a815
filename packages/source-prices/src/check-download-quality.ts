import type { AtomicSink } from '@asof/schema';
import { type BarQualityOptions, type BarQualityResult, checkBarQuality } from './check-bar-quality.ts';
import type { PriceBar } from './price-types.ts';

/**
 * One download's bar quality check (checkBarQuality), its findings warned: per issue code how many bars were
 * dropped or flagged, and the daily returns beyond the extreme-return limit without a split.
 */
export function checkDownloadQuality(
  bars: PriceBar[],
  options: BarQualityOptions & { where: string },
  sink: AtomicSink,
): BarQualityResult {
  const checked = checkBarQuality(bars, options);
  const r = checked.report;
  const where = options.where;
  for (const [code, n] of Object.entries(r.issue_counts)) {
    const first = r.issues.find((i) => i.code === code);
    sink.addWarning({
      code: `PRICES_BAR_${code}`,
      message: `${where}: ${n} bar(s) ${first?.action === 'drop' ? 'dropped' : 'kept but flagged'}: ${first?.message ?? ''}`,
      count: n,
    });
  }
  if (r.extreme_returns.length > 0) {
    const e = r.extreme_returns[0];
    sink.addWarning({
      code: 'PRICES_EXTREME_RETURN',
      message: `${where}: ${r.extreme_returns.length} daily return(s) beyond ±${(options.extremeReturn ?? 0.5) * 100}% without a split, first ${e.date} (${(e.return * 100).toFixed(1)}%); a missing split in the split list looks like this`,
      count: r.extreme_returns.length,
    });
  }
  return checked;
}
