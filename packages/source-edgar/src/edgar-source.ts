import { resolve } from 'node:path';
import type { SkippedInput, Source } from '@asof/schema';
import { EdgarConfig } from './edgar-config.ts';
import { ingestEdgarLive, requireSecUserAgent, SEC_USER_AGENT_ENV } from './fetch-edgar.ts';
import { ingestSyntheticEdgar } from './generate-synthetic-edgar.ts';
import { ingestEdgarRawDir } from './ingest-edgar-raw-dir.ts';
import { planEdgarUpdate } from './plan-edgar-update.ts';

/** SEC EDGAR fundamentals: synthetic companyfacts, then a raw directory, then live tickers. */
export const edgarSource: Source<typeof EdgarConfig, object, 'edgar'> = {
  name: 'edgar',
  schema: EdgarConfig,
  example: { raw_dir: 'edgar' },
  secrets: [],
  credentials: [SEC_USER_AGENT_ENV],
  checkCredentials(e) {
    if (e.tickers) requireSecUserAgent();
  },
  planUpdate: planEdgarUpdate,
  async ingest(e, sink, ctx) {
    const skipped: SkippedInput[] = [];
    const summaries = [];
    if (e.synthetic) {
      const synthetic = e.synthetic;
      summaries.push(
        await ctx.interruptibly(() =>
          ingestSyntheticEdgar(sink, {
            seed: synthetic.seed,
            companies: synthetic.companies,
            firstFiscalYear: synthetic.first_fiscal_year,
            fiscalYears: synthetic.fiscal_years,
          }),
        ),
      );
    }
    if (e.raw_dir) summaries.push(await ingestEdgarRawDir(resolve(ctx.cwd, e.raw_dir), sink));
    if (e.tickers) {
      summaries.push(
        await ingestEdgarLive(sink, {
          tickers: e.tickers,
          cacheDir: ctx.cacheDir(e.cache_dir),
          offline: e.offline,
          log: ctx.log,
        }),
      );
    }
    for (const s of summaries) {
      for (const k of s.skipped)
        skipped.push({ source: 'edgar', id: k.cik, reason: `${k.entity_name}: ${k.reason}` });
      ctx.log(
        `edgar: ${s.ingested} companies, ${s.series} series, ${s.observations} rows (${s.revisions} revisions)`,
      );
    }
    return { skipped };
  },
};
