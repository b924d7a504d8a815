import { appendFileSync, cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildUniverse } from '@asof/cli';
import { PipelineConfig } from '@asof/schema';
import { DEFAULT_REGISTRY_DIR, loadRegistry } from '@asof/taxonomy';
import { afterAll, describe, expect, it } from 'vitest';
import { asof, removeOutput, scratchOut } from './helpers.ts';

describe('asof taxonomy --json', () => {
  it('counts the FinVerse universe exactly', async () => {
    const r = await asof('taxonomy', '--json');
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    // biome-ignore lint/suspicious/noExplicitAny: JSON document from the CLI
    const fv = (xs: any[]): any[] => xs.filter((x) => x.finverse);
    expect(fv(doc.scopes)).toHaveLength(3);
    expect(fv(doc.categories)).toHaveLength(13);
    expect(fv(doc.detail_categories)).toHaveLength(103);
    expect(new Set(fv(doc.detail_categories).map((d: { name: string }) => d.name)).size).toBe(101);
    expect(fv(doc.units)).toHaveLength(119);
    expect(fv(doc.units).filter((u: { eval_target: boolean }) => u.eval_target)).toHaveLength(75);
    expect(fv(doc.metric_columns)).toHaveLength(78);
    const byMetric: Record<string, number> = {};
    for (const c of fv(doc.metric_columns)) byMetric[c.metric] = (byMetric[c.metric] ?? 0) + 1;
    expect(byMetric).toEqual({
      HR: 11,
      MASE_rel: 11,
      MASE_abs: 11,
      DHR: 8,
      D2HR: 8,
      IC: 8,
      MASE_ori: 1,
      return: 5,
      vol: 5,
      Sharpe: 5,
      MDD: 5,
    });
  });
});

describe('the registry in the manifest', () => {
  const a = scratchOut('registry-a');
  const b = scratchOut('registry-b');
  afterAll(() => {
    removeOutput(a.abs);
    removeOutput(b.abs);
  });

  it('changes the dataset_id when a registry file is edited', async () => {
    const config = PipelineConfig.parse({
      name: 'registry-probe',
      sources: {
        embedded: {
          real: { sp500: false, stocks: true, us_employment: true, unemployment_by_industry: false },
        },
      },
    });
    const dir = mkdtempSync(join(tmpdir(), 'asof-registry-'));
    cpSync(DEFAULT_REGISTRY_DIR, dir, { recursive: true });
    appendFileSync(join(dir, 'units.tsv'), 'Inter-country\tCommodity\tContainer Freight\tW\tno\tno\n');
    const one = await buildUniverse({ config, outDir: a.abs, registry: loadRegistry() });
    const two = await buildUniverse({
      config,
      outDir: b.abs,
      registry: loadRegistry(dir),
    });
    expect(one.manifest.registry.find((f) => f.name === 'units.tsv')!.sha256).not.toBe(
      two.manifest.registry.find((f) => f.name === 'units.tsv')!.sha256,
    );
    expect(one.manifest.dataset_id).not.toBe(two.manifest.dataset_id);
    const cov = await asof('taxonomy', '--coverage', join(a.rel, 'manifest.json'), '--json');
    expect(cov.code, cov.stderr).toBe(0);
    const units = JSON.parse(cov.stdout).units as { detail_category: string; series: number }[];
    expect(units.find((u) => u.detail_category === 'Labor')?.series).toBe(2);
  });
});
