import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unitTasks } from './expand-metric-columns.ts';
import { findUnit } from './find-unit.ts';
import { DEFAULT_REGISTRY_DIR, defaultRegistry, loadRegistry, REGISTRY_FILES } from './load-registry.ts';
import { taxonomyDocument } from './taxonomy-document.ts';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the shipped registry in a temp dir, for editing one file. */
function fixtureRegistry(): string {
  const dir = mkdtempSync(join(tmpdir(), 'asof-taxonomy-'));
  temps.push(dir);
  cpSync(DEFAULT_REGISTRY_DIR, dir, { recursive: true });
  return dir;
}

function lineCount(path: string): number {
  return readFileSync(path, 'utf8').replace(/\n$/, '').split('\n').length;
}

function loadError(dir: string): { code: string; message: string; context: Record<string, unknown> } {
  try {
    loadRegistry(dir);
  } catch (e) {
    return e as { code: string; message: string; context: Record<string, unknown> };
  }
  throw new Error('expected loadRegistry to fail');
}

describe('the shipped registry', () => {
  it('holds FinVerse: 3 scopes, 13 categories, 101 detail categories (103 triples), 119 units, 75 evaluated', () => {
    const doc = taxonomyDocument(defaultRegistry());
    const fv = <T extends { finverse: boolean }>(xs: T[]) => xs.filter((x) => x.finverse);
    expect(fv(doc.scopes)).toHaveLength(3);
    expect(fv(doc.categories)).toHaveLength(13);
    expect(fv(doc.detail_categories)).toHaveLength(103);
    expect(new Set(fv(doc.detail_categories).map((d) => d.name)).size).toBe(101);
    expect(fv(doc.units)).toHaveLength(119);
    expect(fv(doc.units).filter((u) => u.eval_target)).toHaveLength(75);
  });

  it('marks extensions finverse false and never evaluates them', () => {
    const r = defaultRegistry();
    const ext = r.units.filter((u) => !u.finverse);
    expect(ext.length).toBeGreaterThan(0);
    expect(ext.filter((u) => u.eval_target)).toEqual([]);
    const annual = ext.filter((u) => u.category === 'Fundamentals' && u.frequency === 'A');
    expect(annual).toHaveLength(14);
    // A detail category with FinVerse units stays FinVerse even when it also has an extension unit.
    const equityClose = r.detailCategories.find((d) => d.name === 'Equity OHLCV Close');
    expect(equityClose?.finverse).toBe(true);
    const usOpen = r.detailCategories.find((d) => d.name === 'US Equity Index OHLCV Open');
    expect(usOpen?.finverse).toBe(false);
  });

  it('lists every file with its sha256 and size, sorted by name', () => {
    const r = defaultRegistry();
    expect(r.files.map((f) => f.name)).toEqual([
      'assignments.tsv',
      'edgar-concepts.tsv',
      'embedded.tsv',
      'fred-catalog.tsv',
      'horizons.tsv',
      'price-kinds.tsv',
      'units.tsv',
      'variants.tsv',
    ]);
    expect(REGISTRY_FILES).toEqual(r.files.map((f) => f.name));
    for (const f of r.files) {
      expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(f.bytes).toBe(readFileSync(f.path).length);
    }
  });

  it('keeps FinVerse quirks as warnings instead of rewriting them', () => {
    expect(defaultRegistry().warnings.some((w) => w.includes('D5') && w.includes('frequency M'))).toBe(true);
  });
});

describe('bad registry input names the file and line', () => {
  it('rejects an unknown variant id', () => {
    const dir = fixtureRegistry();
    const path = join(dir, 'assignments.tsv');
    const text = readFileSync(path, 'utf8').split('\n');
    const i = text.findIndex((l) => l.includes('FX Pair') && l.endsWith('\tD5'));
    text[i] = text[i].replace(/\tD5$/, '\tD7');
    writeFileSync(path, text.join('\n'));
    const err = loadError(dir);
    expect(err.code).toBe('REGISTRY_INVALID');
    expect(err.message).toContain(
      `assignments.tsv line ${i + 1}: variant 'D7' is not one of D5, M10, M4, Q6, Q3, A1, N/A`,
    );
    expect(err.message).toContain(path);
    expect(err.context.line).toBe(i + 1);
  });

  it('rejects a duplicate unit, naming both lines', () => {
    const dir = fixtureRegistry();
    const path = join(dir, 'units.tsv');
    const first = readFileSync(path, 'utf8')
      .split('\n')
      .findIndex((l) => l.startsWith('Country\tFixed Income\tTreasury Yield\tBD'));
    appendFileSync(path, 'Country\tFixed Income\tTreasury Yield\tBD\tno\tno\n');
    const err = loadError(dir);
    expect(err.message).toContain(
      `units.tsv line ${lineCount(path)}: duplicate unit Country / Fixed Income / Treasury Yield / BD`,
    );
    expect(err.message).toContain(`first defined on line ${first + 1}`);
  });

  it('rejects a metric outside the families', () => {
    const dir = fixtureRegistry();
    const path = join(dir, 'assignments.tsv');
    appendFileSync(path, 'Country\tFixed Income\tTreasury Yield\tBD\tPoint-wise\tRMSE\tD5\n');
    const err = loadError(dir);
    expect(err.message).toContain(
      `assignments.tsv line ${lineCount(path)}: metric 'RMSE' is not one of the families HR, DHR`,
    );
  });

  it('rejects a metric assigned twice to one unit', () => {
    const dir = fixtureRegistry();
    const path = join(dir, 'assignments.tsv');
    appendFileSync(path, 'Country\tFixed Income\tTreasury Yield\tBD\tPoint-wise\tHR\tD5\n');
    const err = loadError(dir);
    expect(err.message).toMatch(
      new RegExp(
        `assignments.tsv line ${lineCount(path)}: metric 'HR' is assigned to .* twice \\(also line \\d+\\)`,
      ),
    );
  });

  it('rejects a metric on the wrong aspect and MASE_ori with a variant', () => {
    const dir = fixtureRegistry();
    appendFileSync(
      join(dir, 'assignments.tsv'),
      'Country\tFixed Income\tTreasury Yield\tBD\tPortfolio\tIC\tD5\n',
    );
    expect(loadError(dir).message).toContain("metric 'IC' belongs to aspect Cross-sectional, not Portfolio");
    const dir2 = fixtureRegistry();
    const path2 = join(dir2, 'assignments.tsv');
    writeFileSync(path2, readFileSync(path2, 'utf8').replace('\tMASE_ori\tN/A', '\tMASE_ori\tD5'));
    expect(loadError(dir2).message).toContain('MASE_ori has no (p,h) variant');
  });

  it('rejects a bad frequency with the column and value', () => {
    const dir = fixtureRegistry();
    const path = join(dir, 'units.tsv');
    appendFileSync(path, 'Country\tMacro Indicators\tLabor\tMonthly\tno\tno\n');
    const err = loadError(dir);
    expect(err.message).toContain(`units.tsv line ${lineCount(path)}: column 'frequency'`);
    expect(err.message).toContain('"Monthly"');
  });

  it('rejects a new category that is a near-duplicate of an existing one', () => {
    const dir = fixtureRegistry();
    const path = join(dir, 'units.tsv');
    appendFileSync(path, 'Country\tFixed Incme\tEuro Swap Rate\tBD\tno\tno\n');
    const err = loadError(dir);
    expect(err.message).toContain(`units.tsv line ${lineCount(path)}: column 'category': 'Fixed Incme'`);
    expect(err.message).toContain("close to 'Fixed Income'");
  });

  it('rejects an assignment to an unknown unit, suggesting the nearest name', () => {
    const dir = fixtureRegistry();
    const path = join(dir, 'assignments.tsv');
    appendFileSync(path, 'Country\tFixed Income\tTreasury Yeild\tBD\tPoint-wise\tHR\tD5\n');
    const err = loadError(dir);
    expect(err.message).toContain(`assignments.tsv line ${lineCount(path)}:`);
    expect(err.message).toContain("did you mean 'Treasury Yield'");
  });

  it('rejects an evaluated unit without assignments', () => {
    const dir = fixtureRegistry();
    const path = join(dir, 'units.tsv');
    appendFileSync(path, 'Country\tMacro Indicators\tWage Growth\tM\tyes\tno\n');
    const err = loadError(dir);
    expect(err.message).toContain(
      `units.tsv line ${lineCount(path)}: unit Country / Macro Indicators / Wage Growth / M`,
    );
    expect(err.message).toContain('no rows in assignments.tsv');
  });

  it('rejects an extension whose variant does not fit its frequency', () => {
    const dir = fixtureRegistry();
    appendFileSync(join(dir, 'units.tsv'), 'Country\tMacro Indicators\tWage Growth\tQ\tyes\tno\n');
    appendFileSync(
      join(dir, 'assignments.tsv'),
      'Country\tMacro Indicators\tWage Growth\tQ\tPoint-wise\tHR\tM10\n',
    );
    expect(loadError(dir).message).toMatch(/variant M10 uses .*\(1m,1m\).* not defined at frequency Q/);
  });

  it('rejects a mapping row whose unit does not exist', () => {
    const dir = fixtureRegistry();
    const path = join(dir, 'fred-catalog.tsv');
    appendFileSync(
      path,
      'GS10\t10-Year Treasury (monthly)\tPercent\tM\tCountry\tFixed Income\tTreasury Yield\tH.15\tyes\n',
    );
    const err = loadError(dir);
    expect(err.message).toContain(`fred-catalog.tsv line ${lineCount(path)}:`);
    expect(err.message).toContain("has no unit at frequency 'M'; its units are at BD");
  });

  it('rejects a missing file', () => {
    const dir = fixtureRegistry();
    rmSync(join(dir, 'variants.tsv'));
    expect(loadError(dir).message).toContain('registry file variants.tsv is missing');
  });
});

describe('adding a detail category is one registry entry', () => {
  it('loads a new evaluated unit and expands its tasks', () => {
    const dir = fixtureRegistry();
    appendFileSync(join(dir, 'units.tsv'), 'Country\tMacro Indicators\tWage Growth\tM\tyes\tno\n');
    appendFileSync(
      join(dir, 'assignments.tsv'),
      [
        'Country\tMacro Indicators\tWage Growth\tM\tPoint-wise\tHR,MASE_abs\tM4',
        'Country\tMacro Indicators\tWage Growth\tM\tPoint-wise\tMASE_ori\tN/A',
        '',
      ].join('\n'),
    );
    const before = defaultRegistry();
    const r = loadRegistry(dir);
    expect(r.units).toHaveLength(before.units.length + 1);
    const unit = findUnit(r, {
      scope: 'Country',
      category: 'Macro Indicators',
      detail_category: 'Wage Growth',
      frequency: 'M',
    });
    expect(unit).toMatchObject({ eval_target: true, finverse: false });
    expect(r.detailCategories.find((d) => d.name === 'Wage Growth')?.finverse).toBe(false);
    const tasks = unitTasks(r, unit.key);
    // M4 has 4 (p,h) pairs, so HR and MASE_abs give 4 each, plus one MASE_ori.
    expect(tasks).toHaveLength(9);
    expect(tasks.filter((t) => t.metric === 'HR').map((t) => [t.p, t.h, t.p_steps, t.h_steps])).toEqual([
      ['1m', '1m', 1, 1],
      ['1q', '1m', 3, 1],
      ['1h', '1m', 6, 1],
      ['1y', '1m', 12, 1],
    ]);
    expect(taxonomyDocument(r).units.filter((u) => u.detail_category === 'Wage Growth')).toEqual([
      {
        scope: 'Country',
        category: 'Macro Indicators',
        detail_category: 'Wage Growth',
        frequency: 'M',
        eval_target: true,
        finverse: false,
      },
    ]);
  });
});
