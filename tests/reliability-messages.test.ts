import dns from 'node:dns';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeDatasetId } from '@asof/manifest';
import { writeSyntheticRawUniverse } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, SCRATCH } from './helpers.ts';
import { type TinyFixture, tinyFixture } from './shared-fixtures.ts';

// Issue 52 item 8 and the message defects (audit reliability-2026-12, ranked defects 18 and 20 and the rows
// named in each test): exit codes as the README says, `update` as `build`, unknown names refused with the
// nearest ones before any work, JSON errors under --json, and messages that name what the user wrote.
const work = realpathSync(mkdtempSync(join(SCRATCH, 'reliability-messages-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
let tiny: TinyFixture;

/**
 * The error on stderr: the last `asof <command>: ` line (log lines and warnings come before it), followed by
 * nothing but its indented `hint:`/`usage:` lines, and no stack trace anywhere. Returns the error with them.
 */
function oneErrorLine(stderr: string, command: string): string {
  const lines = stderr.split('\n');
  const at = lines.findLastIndex((l) => l.startsWith(`asof ${command}: `));
  expect(at, stderr).toBeGreaterThanOrEqual(0);
  const rest = lines.slice(at + 1).filter((l) => l !== '');
  for (const l of rest) expect(l, stderr).toMatch(/^ {2}(hint|usage): /);
  expect(stderr).not.toMatch(/unexpected failure|\n\s+at /);
  return [lines[at], ...rest].join('\n');
}

/** A pipeline file in the scratch folder. */
function pipeline(name: string, body: Record<string, unknown>): string {
  const path = join(work, `${name}.json`);
  writeFileSync(path, JSON.stringify({ name, ...body }));
  return path;
}

/**
 * Every host name fails to resolve (ENOTFOUND) while `body` runs: the lookup is answered here, so no request
 * reaches a resolver or the internet. Returns the host names asked for.
 */
async function withoutDns(body: () => Promise<void>): Promise<string[]> {
  const original = dns.lookup;
  const asked: string[] = [];
  (dns as { lookup: unknown }).lookup = (host: string, options: unknown, callback?: unknown) => {
    asked.push(host);
    const cb = (typeof options === 'function' ? options : callback) as (e: Error) => void;
    process.nextTick(() =>
      cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host })),
    );
  };
  try {
    await body();
  } finally {
    (dns as { lookup: unknown }).lookup = original;
  }
  return asked;
}

beforeAll(async () => {
  tiny = await tinyFixture();
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('exit codes as the README says (issue 52 item 8)', () => {
  it('5.2: a network failure exits 1, not 2, in one line naming the host', async () => {
    const saved = process.env.ASOF_FRED_API_KEY;
    process.env.ASOF_FRED_API_KEY = 'abcdef0123456789abcdef0123456789';
    const live = pipeline('live52', {
      sources: { fred: { series: ['GDP'], cache_dir: join(work, 'cache52') } },
    });
    let r = { code: 0, stdout: '', stderr: '' };
    try {
      const asked = await withoutDns(async () => {
        r = await run('build', live, '--out', 'out/live52');
      });
      expect(asked).toContain('api.stlouisfed.org');
    } finally {
      if (saved === undefined) delete process.env.ASOF_FRED_API_KEY;
      else process.env.ASOF_FRED_API_KEY = saved;
    }
    expect(r.code, r.stderr).toBe(1);
    expect(oneErrorLine(r.stderr, 'build')).toMatch(/cannot reach api\.stlouisfed\.org \(ENOTFOUND/);
  });

  it('5.2: README says 2 for bad input and 1 for failures, a network failure among them', async () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    expect(readme).toMatch(/exit 2 for bad input[\s\S]{0,200}1 for\s+failures \(a network failure included/);
  });
});

describe('--json errors are JSON (issue 52 item 8)', () => {
  it('json: a usage error under --json is one JSON object on stdout, with the code, hint and exit 2', async () => {
    const r = await run('diff', join(tiny.universe, 'manifest.json'), '--json');
    expect(r.code).toBe(2);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const doc = JSON.parse(lines[0]);
    expect(doc.error).toMatchObject({ code: 'USAGE', exit: 2 });
    expect(doc.error.message).toMatch(/expected two manifests/);
    expect(doc.error.usage).toMatch(/^asof diff /);
    // A person still reads the error on stderr.
    expect(oneErrorLine(r.stderr, 'diff')).toMatch(/expected two manifests/);
  });

  it('json: a failure under --json is JSON with exit 1, and without --json stdout stays empty', async () => {
    const r = await run('verify', join(work, 'nowhere', 'manifest.json'), '--json');
    expect(r.code).not.toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.error.exit).toBe(r.code);
    expect(typeof doc.error.code).toBe('string');
    const plain = await run('verify', join(work, 'nowhere', 'manifest.json'));
    expect(plain.code).toBe(r.code);
    expect(plain.stdout).toBe('');
  });

  it('json: an unknown command under --json is JSON too, naming the nearest command', async () => {
    const r = await run('bulid', '--json');
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc.error).toMatchObject({ code: 'UNKNOWN_COMMAND', exit: 2 });
    expect(doc.error.message).toMatch(/did you mean build\?/);
  });
});

describe('asof update resolves paths as build does and prints nothing internal (issue 52 item 8)', () => {
  // A pipeline with relative raw_dirs in its own folder (raw/pipeline.json → raw/edgar, raw/fred, raw/prices),
  // built from the scratch folder: the raw folders are not below the working directory's own name.
  const shape = { instruments: 2, companies: 2, fredSeries: 2 };
  beforeAll(async () => {
    writeSyntheticRawUniverse(join(work, 'raw'), { stage: 1, ...shape });
    writeSyntheticRawUniverse(join(work, 'raw2'), { stage: 2, ...shape });
    const r = await run('build', 'raw/pipeline.json', '--out', 'out/uold');
    expect(r.code, r.stderr).toBe(0);
  }, 600_000);

  /** Nothing of asof's own: no generation or temp path, no .work folder, no JSON dump. */
  function nothingInternal(text: string): void {
    expect(text).not.toMatch(/\.asof\/|\.work|tmp-\d|gen-[0-9a-f]{12}/);
    expect(text).not.toMatch(/\{"/);
  }

  it('9.1: update without the pipeline argument finds relative raw_dirs as build did; nothing new: a hint naming OLD', async () => {
    const r = await run('update', '--manifest', 'out/uold/manifest.json', '--out', 'out/unew');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^up to date: /);
    expect(r.stderr).toMatch(/^next: asof series --data out\/uold$/m);
    nothingInternal(r.stdout + r.stderr);
  });

  it('9.1: update of new raw files without the pipeline argument prints nothing internal; next names --out', async () => {
    // New price downloads land in the pipeline's own raw folder (as update-diff.test.ts's t3).
    cpSync(join(work, 'raw2', 'prices'), join(work, 'raw', 'prices'), { recursive: true });
    const r = await run('update', '--manifest', 'out/uold/manifest.json', '--out', 'out/unew');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^updated: out\/unew from parent /);
    expect(r.stderr).toMatch(/prices: \d+ instruments from prices \(the files read again\)/);
    expect(r.stderr).toMatch(/^next: asof diff out\/uold\/manifest\.json out\/unew\/manifest\.json$/m);
    nothingInternal(r.stdout + r.stderr);
    // The update is the build over the same files, with the same pipeline file recorded.
    const built = await run('build', 'raw/pipeline.json', '--out', 'out/ubuilt');
    expect(built.code, built.stderr).toBe(0);
    const ids = ['unew', 'ubuilt'].map(
      (d) =>
        JSON.parse(readFileSync(join(work, 'out', d, 'manifest.json'), 'utf8')) as {
          outputs: unknown[];
          created_by: { pipeline_file?: string };
        },
    );
    expect(ids[0].outputs).toEqual(ids[1].outputs);
    // Recorded relative to the universe's own folder (out/.asof/<name>/gen-…, four levels below work/): no
    // path of this machine's.
    expect(ids[0].created_by.pipeline_file).toBe('../../../../raw/pipeline.json');
    expect(ids[1].created_by.pipeline_file).toBe('../../../../raw/pipeline.json');
    for (const d of ['unew', 'ubuilt'])
      expect(readFileSync(join(work, 'out', d, 'manifest.json'), 'utf8')).not.toContain(work);
  });

  it('9.1: a manifest recording no pipeline file, raw_dirs not under the working directory: one line naming the field, exit 2', async () => {
    // An older manifest: no created_by.pipeline_file (which dataset_id does not cover, so it still verifies).
    cpSync(join(work, 'out', 'uold'), join(work, 'out', 'uolder'), { recursive: true, dereference: true });
    const path = join(work, 'out', 'uolder', 'manifest.json');
    const m = JSON.parse(readFileSync(path, 'utf8'));
    delete m.created_by.pipeline_file;
    writeFileSync(path, JSON.stringify(m));
    const verified = await run('verify', path);
    expect(verified.code, verified.stderr).toBe(0);
    const r = await run('update', '--manifest', 'out/uolder/manifest.json', '--out', 'out/u2');
    expect(r.code).toBe(2);
    expect(oneErrorLine(r.stderr, 'update')).toMatch(
      /sources\.edgar\.raw_dir "edgar": no folder at .*records no pipeline file[\s\S]*hint: .*pass the pipeline file/,
    );
  });
});

describe('unknown names are errors with the nearest names, before any work (issue 52 item 8)', () => {
  const u = () => join(tiny.universe, 'manifest.json');
  /** A series id of the tiny universe, and the same with its last character changed (a typo). */
  async function typoOfAnId(): Promise<{ id: string; typo: string }> {
    const r = await run('series', '--data', tiny.universe, '--json');
    expect(r.code, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as { series_id: string }[])[0].series_id;
    return { id, typo: `${id.slice(0, -1)}#` };
  }

  it('9.6: diff --series <typo> is refused with the nearest ids, exit 2 (was "no differences", exit 0)', async () => {
    const { id, typo } = await typoOfAnId();
    const r = await run('diff', u(), u(), '--series', typo);
    expect(r.code).toBe(2);
    expect(r.stdout).not.toMatch(/no differences/);
    const line = oneErrorLine(r.stderr, 'diff');
    expect(line).toContain(`--series ${typo}: no such series in`);
    expect(line).toMatch(new RegExp(`did you mean ${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`));
    // A pattern that matches nothing gets its own message; one that matches is accepted.
    const glob = await run('diff', u(), u(), '--series', 'nomatch:*');
    expect(glob.code).toBe(2);
    expect(oneErrorLine(glob.stderr, 'diff')).toMatch(
      /--series nomatch:\*: the pattern matches no series in/,
    );
    const ok = await run('diff', u(), u(), '--series', `${id.slice(0, 4)}*`);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('taxonomy foo: an unknown name is refused with the nearest names, exit 2 (was the whole registry, exit 0)', async () => {
    const r = await run('taxonomy', 'Inflatoin');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(oneErrorLine(r.stderr, 'taxonomy')).toMatch(
      /name Inflatoin: no such scope, category, detail category or unit in the taxonomy registry; did you mean Inflation\b/,
    );
    // A known name, any case, keeps its units only.
    const known = await run('taxonomy', 'inflation', '--json');
    expect(known.code, known.stderr).toBe(0);
    const units = (JSON.parse(known.stdout) as { units: { detail_category: string; category: string }[] })
      .units;
    expect(units.length).toBeGreaterThan(0);
    for (const x of units) expect([x.detail_category, x.category]).toContain('Inflation');
  });

  it('split --series <typo> names the nearest series, not the units; --unit <typo> the nearest units', async () => {
    const { id, typo } = await typoOfAnId();
    const r = await run('split', '--manifest', u(), '--out', 'out/s-typo', '--series', typo);
    expect(r.code).toBe(2);
    const line = oneErrorLine(r.stderr, 'split');
    expect(line).toContain(`--series ${typo}: no such series in`);
    expect(line).toContain(`did you mean ${id}`);
    expect(line).not.toMatch(/units there/);
    const unit = await run(
      'split',
      '--manifest',
      u(),
      '--out',
      'out/s-typo',
      '--unit',
      'Individual/Equity/Equity OHLCV Clos/BD',
    );
    expect(unit.code).toBe(2);
    expect(oneErrorLine(unit.stderr, 'split')).toMatch(
      /--unit Individual\/Equity\/Equity OHLCV Clos\/BD: no such taxonomy unit in .*; did you mean Individual\/Equity\/Equity OHLCV Close\/BD\b/,
    );
  });

  it('report --series <typo> is refused before the universe is aggregated, with the nearest ids', async () => {
    const { id, typo } = await typoOfAnId();
    const r = await run('report', '--manifest', u(), '--series', typo, '--out', 'out/r-typo.html');
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/aggregated the universe/);
    expect(oneErrorLine(r.stderr, 'report')).toMatch(
      /--series .*: no such series in this universe; did you mean /,
    );
    expect(r.stderr).toContain(id);
  });

  it('series --unit/--source <typo> are refused with the nearest names (were "0 series", exit 0)', async () => {
    const unit = await run('series', '--data', tiny.universe, '--unit', 'Individual/Equity/Stok/BD');
    expect(unit.code).toBe(2);
    expect(oneErrorLine(unit.stderr, 'series')).toMatch(
      /--unit Individual\/Equity\/Stok\/BD: no such taxonomy unit/,
    );
    const source = await run('series', '--data', tiny.universe, '--source', 'fredd');
    expect(source.code).toBe(2);
    expect(oneErrorLine(source.stderr, 'series')).toMatch(
      /--source fredd: no such source in .*; did you mean fred\b/,
    );
  });

  it('4.1: an id echoed in an error has its control characters escaped and is cut when long', async () => {
    const r = await run('show', `a\nb${'A'.repeat(100_000)}`, '--data', tiny.universe);
    expect(r.code).toBe(2);
    const line = oneErrorLine(r.stderr, 'show');
    expect(line.split('\n')[0]).toMatch(/series a\\nbA+… \(100,003 characters\)/);
    expect(r.stderr.length).toBeLessThan(2_000);
    // Wherever a value is echoed, no escape sequence reaches the terminal: a --data folder named with one.
    const esc = await run('series', '--data', 'out/\u001b[2Jgone');
    expect(esc.code).toBe(2);
    expect(esc.stderr).not.toContain('\u001b');
    expect(oneErrorLine(esc.stderr, 'series')).toContain('out/\\u{1b}[2Jgone');
  });
});

describe('the message defects (audit defects 18 and 20)', () => {
  it('3.12/4.4: a build with 0 series shows the skipped-file warnings it refers to, names escaped', async () => {
    const { mkdirSync } = await import('node:fs');
    const raw = join(work, 'p412', 'raw');
    mkdirSync(raw, { recursive: true });
    const bars = 'Date,Open,High,Low,Close,Volume\n2020-01-02,1,2,0.5,1.5,100\n2020-01-03,1,2,0.5,1.5,100\n';
    writeFileSync(join(raw, 'a"b.csv'), bars);
    writeFileSync(join(raw, 'new\nline.csv'), bars);
    const p = join(work, 'p412', 'pipeline.json');
    writeFileSync(p, JSON.stringify({ name: 'p412', sources: { prices: { raw_dir: 'raw' } } }));
    const r = await run('build', p, '--out', 'out/p412');
    expect(r.code).toBe(2);
    const line = oneErrorLine(r.stderr, 'build');
    expect(line).toMatch(/0 series .* The sources said: PRICES_FILE_SKIPPED: a"b\.csv: no symbol/);
    expect(line).toContain('PRICES_FILE_SKIPPED: new\\nline.csv: no symbol');
    expect(line).not.toMatch(/check the skipped-file warnings/i);
    // Nothing skipped, nothing produced (a weekend has no trading day): no mention of warnings at all.
    const weekend = pipeline('weekend412', {
      sources: {
        embedded: {
          real: { sp500: false, stocks: false, us_employment: false, unemployment_by_industry: false },
          synthetic: { seed: 1, start: '2020-01-04', end: '2020-01-05', instruments: 1 },
        },
      },
    });
    const e = await run('build', weekend, '--out', 'out/weekend412');
    expect(e.code).toBe(2);
    const said = oneErrorLine(e.stderr, 'build');
    expect(said).toMatch(/0 series with observations .*Check the date ranges/);
    expect(said).not.toMatch(/warning|SURVIVORSHIP|The sources said/i);
  });

  it('3.26: export fintsb of a split says it is a split, not that asof is too old', async () => {
    const r = await run(
      'export',
      'fintsb',
      '--manifest',
      join(tiny.split, 'manifest.json'),
      '--out',
      'out/f326',
    );
    expect(r.code).toBe(2);
    const line = oneErrorLine(r.stderr, 'export');
    expect(line).toMatch(/manifest kind is 'split'; asof export fintsb reads a universe/);
    expect(line).not.toMatch(/version of asof/);
  });

  it('3.27: show on a universe manifest listing no series file names that, not a DuckDB type error', async () => {
    const copy = join(work, 'u327');
    cpSync(tiny.universe, copy, { recursive: true, dereference: true });
    const path = join(copy, 'manifest.json');
    const m = JSON.parse(readFileSync(path, 'utf8'));
    m.outputs = m.outputs.filter((o: { table: string }) => o.table !== 'series');
    m.dataset_id = computeDatasetId(m);
    writeFileSync(path, JSON.stringify(m));
    const r = await run('show', 'syn:fred:SYNCPI', '--data', copy);
    expect(r.code).toBe(2);
    const line = oneErrorLine(r.stderr, 'show');
    expect(line).toMatch(/lists no series file \(series\.parquet\)/);
    expect(line).not.toMatch(/DuckDB|type ANY/);
  });

  it('15.9: a synthetic end of 9999-12-31 is refused naming the field and the value written, not "+010000-01"', async () => {
    const p = pipeline('d159', {
      sources: { fred: { synthetic: { seed: 1, start: '2012-01-01', end: '9999-12-31', count: 1 } } },
    });
    const r = await run('build', p, '--out', 'out/d159');
    expect(r.code).toBe(2);
    const line = oneErrorLine(r.stderr, 'build');
    expect(line).toMatch(/sources\.fred\.synthetic\.end: "9999-12-31" is later than 2999-12-31/);
    expect(line).not.toMatch(/\+010000/);
  });

  it('15.10: eval_start 9999-12-31 builds with a warning that nothing can be evaluated', async () => {
    const { readFileSync: read } = await import('node:fs');
    const body = JSON.parse(read(tiny.pipeline, 'utf8'));
    const p = pipeline('e1510', { ...body, name: 'e1510', eval_start: '9999-12-31' });
    const r = await run('build', p, '--out', 'out/e1510');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /EVAL_START_AFTER_DATA: eval_start 9999-12-31 is after the last observation of every series \(\d{4}-\d{2}-\d{2}\)/,
    );
    const m = JSON.parse(read(join(work, 'out', 'e1510', 'manifest.json'), 'utf8'));
    expect(m.warnings.map((w: { code: string }) => w.code)).toContain('EVAL_START_AFTER_DATA');
  });

  it('3.25: --embargo 99999999 is refused as an embargo, not as the date "-271771-04-21"', async () => {
    const r = await run(
      'split',
      '--manifest',
      join(tiny.universe, 'manifest.json'),
      '--out',
      'out/s325',
      '--embargo',
      '99999999',
    );
    expect(r.code).toBe(2);
    const line = oneErrorLine(r.stderr, 'split');
    expect(line).toMatch(
      /--embargo P99999999D: eval_start \d{4}-\d{2}-\d{2} minus the embargo falls before the year 1/,
    );
    expect(line).not.toMatch(/-271771/);
  });

  it('9.6: diff --limit -1 is refused by the command naming the value, not by Node as "ambiguous"', async () => {
    const u = join(tiny.universe, 'manifest.json');
    const r = await run('diff', u, u, '--limit', '-1');
    expect(r.code).toBe(2);
    const line = oneErrorLine(r.stderr, 'diff');
    expect(line).toMatch(/--limit -1: expected a whole number/);
    expect(line).not.toMatch(/ambiguous/);
  });

  it('8.11: `;` in --model is refused like `|`, before anything runs', async () => {
    const { existsSync } = await import('node:fs');
    for (const [model, op] of [
      [`python3 ok.py; touch ${join(work, 'PWNED811')}`, ';'],
      [`python3 ok.py | touch ${join(work, 'PWNED811')}`, '|'],
    ]) {
      const r = await run(
        'run',
        '--manifest',
        join(tiny.split, 'manifest.json'),
        '--model',
        model,
        '--name',
        'm811',
        '--out',
        'out/m811.parquet',
      );
      expect(r.code, model).toBe(2);
      expect(oneErrorLine(r.stderr, 'run')).toContain(`'${op}' is a shell operator`);
    }
    expect(existsSync(join(work, 'PWNED811'))).toBe(false);
  });
});
