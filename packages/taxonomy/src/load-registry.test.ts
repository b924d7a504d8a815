import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unitTasks } from './expand-metric-columns.ts';
import { findUnit } from './find-unit.ts';
import { DEFAULT_REGISTRY_DIR, defaultRegistry, loadRegistry, REGISTRY_FILES } from './load-registry.ts';
import { rawUnitRows } from './raw-registry-rows.ts';
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

/**
 * A detail category name the shipped registry does not have yet (`wanted`, else `wanted` with a suffix): the
 * README's own example (Wage Growth) may have been added by then, and a fixture must not collide with it.
 */
function unusedDetailCategory(wanted: string): string {
  const names = new Set(defaultRegistry().detailCategories.map((d) => d.name));
  let name = wanted;
  for (let i = 2; names.has(name); i++) name = `${wanted} ${i}`;
  return name;
}
const NEW = unusedDetailCategory('Wage Growth');

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
  it("holds exactly the FinVerse tables' units, and derives their scopes, categories and detail categories", () => {
    // The FinVerse rows of units.tsv (finverse = yes) are the ../shared/spec facts (shared-spec.test.ts
    // checks them row by row); what the loader derives from them must match a recount of the raw file.
    const rows = rawUnitRows().filter((u) => u.finverse);
    const doc = taxonomyDocument(defaultRegistry());
    const fv = <T extends { finverse: boolean }>(xs: T[]) => xs.filter((x) => x.finverse);
    const key = (...xs: string[]) => xs.join('|');
    expect(fv(doc.units).map((u) => key(u.scope, u.category, u.detail_category, u.frequency))).toEqual(
      rows.map((u) => key(u.scope, u.category, u.detail_category, u.frequency)),
    );
    expect(fv(doc.units).filter((u) => u.eval_target)).toHaveLength(rows.filter((u) => u.eval_target).length);
    expect(new Set(fv(doc.scopes).map((s) => s.name))).toEqual(new Set(rows.map((u) => u.scope)));
    expect(new Set(fv(doc.categories).map((c) => key(c.scope, c.name)))).toEqual(
      new Set(rows.map((u) => key(u.scope, u.category))),
    );
    const triples = new Set(rows.map((u) => key(u.scope, u.category, u.detail_category)));
    expect(fv(doc.detail_categories)).toHaveLength(triples.size);
    expect(new Set(fv(doc.detail_categories).map((d) => d.name))).toEqual(
      new Set(rows.map((u) => u.detail_category)),
    );
  });

  it('marks extensions finverse false, and scores an evaluated extension like any evaluated unit', () => {
    const r = defaultRegistry();
    const ext = r.units.filter((u) => !u.finverse);
    expect(ext.length).toBeGreaterThan(0);
    expect(ext.map((u) => u.key)).toEqual(
      rawUnitRows()
        .filter((u) => !u.finverse)
        .map((u) => `${u.scope} / ${u.category} / ${u.detail_category} / ${u.frequency}`),
    );
    // The rule is "FinVerse units are exactly the paper's; extensions are marked", not "extensions are
    // never scored": an evaluated extension gets tasks from its own assignment rows.
    for (const u of ext.filter((x) => x.eval_target)) {
      expect(
        unitTasks(r, u.key).filter((t) => t.metric === 'MASE_ori'),
        u.key,
      ).toHaveLength(1);
    }
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
      'macro-panels.tsv',
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
    expect(err.message).toContain(`units.tsv line ${lineCount(path)}: frequency: `);
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
    appendFileSync(path, `Country\tMacro Indicators\t${NEW}\tM\tyes\tno\n`);
    const err = loadError(dir);
    expect(err.message).toContain(
      `units.tsv line ${lineCount(path)}: unit Country / Macro Indicators / ${NEW} / M`,
    );
    expect(err.message).toContain('no rows in assignments.tsv');
  });

  it('rejects an extension whose variant does not fit its frequency', () => {
    const dir = fixtureRegistry();
    appendFileSync(join(dir, 'units.tsv'), `Country\tMacro Indicators\t${NEW}\tQ\tyes\tno\n`);
    appendFileSync(
      join(dir, 'assignments.tsv'),
      `Country\tMacro Indicators\t${NEW}\tQ\tPoint-wise\tHR\tM10\n`,
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
    appendFileSync(join(dir, 'units.tsv'), `Country\tMacro Indicators\t${NEW}\tM\tyes\tno\n`);
    appendFileSync(
      join(dir, 'assignments.tsv'),
      [
        `Country\tMacro Indicators\t${NEW}\tM\tPoint-wise\tHR,MASE_abs\tM4`,
        `Country\tMacro Indicators\t${NEW}\tM\tPoint-wise\tMASE_ori\tN/A`,
        '',
      ].join('\n'),
    );
    const before = defaultRegistry();
    const r = loadRegistry(dir);
    expect(r.units).toHaveLength(before.units.length + 1);
    const unit = findUnit(r, {
      scope: 'Country',
      category: 'Macro Indicators',
      detail_category: NEW,
      frequency: 'M',
    });
    expect(unit).toMatchObject({ eval_target: true, finverse: false });
    expect(r.detailCategories.find((d) => d.name === NEW)?.finverse).toBe(false);
    const tasks = unitTasks(r, unit.key);
    // M4 has 4 (p,h) pairs, so HR and MASE_abs give 4 each, plus one MASE_ori.
    expect(tasks).toHaveLength(9);
    expect(tasks.filter((t) => t.metric === 'HR').map((t) => [t.p, t.h, t.p_steps, t.h_steps])).toEqual([
      ['1m', '1m', 1, 1],
      ['1q', '1m', 3, 1],
      ['1h', '1m', 6, 1],
      ['1y', '1m', 12, 1],
    ]);
    expect(taxonomyDocument(r).units.filter((u) => u.detail_category === NEW)).toEqual([
      {
        scope: 'Country',
        category: 'Macro Indicators',
        detail_category: NEW,
        frequency: 'M',
        eval_target: true,
        finverse: false,
      },
    ]);
  });
});
