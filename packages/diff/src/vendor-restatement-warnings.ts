import { periodLabel } from '@asof/calendar';
import type { Duck } from '@asof/duck';
import type { BuildWarning, RawInput } from '@asof/schema';
import { diffModelSql } from './run-diff-model.ts';

interface RestatementRow {
  source_ref: string;
  n_values: bigint;
  n_series: bigint;
  example_series_id: string;
  example_ts: bigint;
  example_frequency: string;
  example_fiscal_year_end: string | null;
  example_old: number;
  example_new: number;
}

/**
 * The build's check of vendor files downloaded more than once: per later download that changed values an
 * earlier download of the same file had published (sql/vendor_restatements.sql over the build's
 * `observations` and `series` tables), one VENDOR_RESTATED warning naming the file, with the number of
 * values as its count. Such a file carries no revision dates, so nothing but this comparison shows it.
 */
export async function vendorRestatementWarnings(
  duck: Duck,
  inputs: readonly RawInput[],
): Promise<BuildWarning[]> {
  const rows = await duck.all<RestatementRow>(diffModelSql('vendor_restatements'));
  const fileOf = new Map(inputs.map((i) => [i.sha256, i.key]));
  return rows.map((r) => {
    const sha = r.source_ref.replace(/^sha256:/, '');
    const file = fileOf.get(sha) ?? r.source_ref;
    const when = periodLabel(Number(r.example_ts), r.example_frequency, r.example_fiscal_year_end);
    const n = Number(r.n_values);
    return {
      code: 'VENDOR_RESTATED',
      message:
        `${file}: this later download changed ${n.toLocaleString('en-US')} value(s) of ${Number(r.n_series)} series that ` +
        `an earlier download had published (e.g. ${r.example_series_id} ${when}: ${r.example_old} → ${r.example_new}); ` +
        'the file carries no revision dates, so each is kept as a revision available from this download ' +
        "(list them with 'asof diff')",
      count: n,
    };
  });
}
