import { appendFileSync, cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildUniverse, PipelineConfig } from '@asof/build';
import { DEFAULT_REGISTRY_DIR, defaultRegistry, expandMetricColumns, loadRegistry } from '@asof/taxonomy';
import { afterAll, describe, expect, it } from 'vitest';
import { asof, removeOutput, scratchOut } from './helpers.ts';

/** units.tsv rows read without the loader: scope, category, detail_category, frequency, eval_target, finverse. */
function unitRows(): string[][] {
  return readFileSync(join(DEFAULT_REGISTRY_DIR, 'units.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .slice(1)
    .map((l) => l.split('\t'));
}

describe('asof taxonomy --json', () => {
  it("lists exactly the FinVerse tables' units, marked, beside the extensions", async () => {
    const r = await asof('taxonomy', '--json');
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    // biome-ignore lint/suspicious/noExplicitAny: JSON document from the CLI
    const fv = (xs: any[]): any[] => xs.filter((x) => x.finverse);
    // The expected counts come from the registry's FinVerse rows (the ../shared/spec facts copied into
    // units.tsv, finverse = yes): an extension unit, evaluated or not, changes none of them.
    const rows = unitRows();
    const finverse = rows.filter((u) => u[5] === 'yes');
    const key = (u: { scope: string; category: string; detail_category: string; frequency: string }) =>
      [u.scope, u.category, u.detail_category, u.frequency].join('|');
    expect(fv(doc.units).map(key)).toEqual(finverse.map((u) => u.slice(0, 4).join('|')));
    expect(fv(doc.units).filter((u: { eval_target: boolean }) => u.eval_target)).toHaveLength(
      finverse.filter((u) => u[4] === 'yes').length,
    );
    expect(doc.units).toHaveLength(rows.length);
    expect(fv(doc.scopes)).toHaveLength(new Set(finverse.map((u) => u[0])).size);
    expect(fv(doc.categories)).toHaveLength(new Set(finverse.map((u) => `${u[0]}|${u[1]}`)).size);
    expect(fv(doc.detail_categories)).toHaveLength(
      new Set(finverse.map((u) => u.slice(0, 3).join('|'))).size,
    );
    const columns = expandMetricColumns(defaultRegistry(), { finverseOnly: true });
    expect(fv(doc.metric_columns)).toHaveLength(columns.length);
    expect(new Set(fv(doc.metric_columns).map((c: { metric: string }) => c.metric))).toEqual(
      new Set([
        'HR',
        'MASE_rel',
        'MASE_abs',
        'DHR',
        'D2HR',
        'IC',
        'MASE_ori',
        'return',
        'vol',
        'Sharpe',
        'MDD',
      ]),
    );
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
    // A unit the registry does not have yet (whatever detail categories were added since).
    const names = new Set(defaultRegistry().detailCategories.map((d) => d.name));
    let name = 'Container Freight';
    for (let i = 2; names.has(name); i++) name = `Container Freight ${i}`;
    appendFileSync(join(dir, 'units.tsv'), `Inter-country\tCommodity\t${name}\tW\tno\tno\n`);
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
