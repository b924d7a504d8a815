import { InputError } from '@asof/schema';
import { qlibSymbol } from './qlib-symbol.ts';

/** The daily fields Qlib's feature store names ($open, $close, …), taken from series ids ending in them. */
export const QLIB_FIELDS = ['open', 'high', 'low', 'close', 'volume', 'factor'] as const;

export interface QlibSeries {
  series_id: string;
  /** Folder name under features/ (lower-cased, Windows device names prefixed: qlibSymbol). */
  symbol: string;
  /** The instrument code in instruments/all.txt (upper-cased, as Qlib's dump_bin writes it). */
  code: string;
  field: string;
}

export interface QlibPitSeries {
  series_id: string;
  symbol: string;
  /** Qlib's PIT field without its interval: the EDGAR concept with '-' as '_' (revenue, net_income). */
  field: string;
  quarterly: boolean;
}

interface SeriesRow {
  series_id: string;
  frequency: string;
  source: string | null;
}

/**
 * Which series go where in the Qlib store, from the series ids (packages/interop/README.md):
 * - features: daily series (BD, D) whose id ends in `:<symbol>:<field>` with a Qlib price field
 *   (syn:px:SYNA:close → symbol syna, field close);
 * - financial (PIT): EDGAR series (source edgar, Q or A) with ids `…:<cik>:<concept>:<Q|A>`.
 * Two series with the same symbol and field refuse the export (QLIB_SYMBOL_CLASH): Qlib keeps one.
 */
export function chooseQlibSeries(rows: readonly SeriesRow[]): {
  features: QlibSeries[];
  pit: QlibPitSeries[];
} {
  const features: QlibSeries[] = [];
  const pit: QlibPitSeries[] = [];
  const seen = new Map<string, string>();
  const claim = (key: string, seriesId: string) => {
    const other = seen.get(key);
    if (other !== undefined) {
      throw new InputError(
        'QLIB_SYMBOL_CLASH',
        `${other} and ${seriesId} both map to Qlib's ${key}; export them from separate universes (packages/interop/README.md)`,
      );
    }
    seen.set(key, seriesId);
  };
  for (const r of rows) {
    const parts = r.series_id.split(':');
    if (parts.length < 3) continue;
    const last = parts[parts.length - 1];
    if ((r.frequency === 'BD' || r.frequency === 'D') && (QLIB_FIELDS as readonly string[]).includes(last)) {
      const code = parts[parts.length - 2];
      const symbol = qlibSymbol(code);
      claim(`features/${symbol}/${last}`, r.series_id);
      features.push({ series_id: r.series_id, symbol, code: code.toUpperCase(), field: last });
    } else if (r.source === 'edgar' && (r.frequency === 'Q' || r.frequency === 'A') && parts.length >= 4) {
      const symbol = qlibSymbol(parts[parts.length - 3]);
      const field = parts[parts.length - 2].toLowerCase().replace(/[^a-z0-9_]/g, '_');
      const quarterly = r.frequency === 'Q';
      claim(`financial/${symbol}/${field}_${quarterly ? 'q' : 'a'}`, r.series_id);
      pit.push({ series_id: r.series_id, symbol, field, quarterly });
    }
  }
  return { features, pit };
}
