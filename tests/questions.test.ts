import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isoToMicros, microsToIso } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import { canonicalJson, sha256Hex } from '@asof/manifest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, SHARED } from './helpers.ts';
import { poisonUniverse } from './poison-universe.ts';
import { CANARY_PIPELINE, CANARY_T, defaultFixture } from './shared-fixtures.ts';

// Issue 55: forecast questions for a model cutoff (asof questions), from the default universe, the
// real-archive universe and the leakage canary's pair. Resolutions are checked against `asof show --as-of`
// at the release instant, inputs against t, and the poisoned universe against the clean one.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'asof-questions-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CUTOFF = '2021-12-31';
const RUN_DATE = '2025-12-31';

interface Question {
  instance_id: string;
  family: 'VAL' | 'RANK' | 'EVT' | 'FUND';
  t: string;
  window: 'T1' | 'T2' | 'T3';
  resolves_at: string | null;
  subjects: string[];
  target: string;
  horizon: number | null;
  reference_value: number | null;
  reference_at: string | null;
  scorer_params: Record<string, number>;
  [field: string]: unknown;
}
interface Resolution {
  instance_id: string;
  status: 'resolved' | 'open';
  value: number | null;
  ranking: string[] | null;
  returns: Record<string, number> | null;
  latest_value: number | null;
  moved: boolean | null;
  flipped: boolean | null;
}
interface Folder {
  dir: string;
  questions: Question[];
  resolutions: Map<string, Resolution>;
  baselines: { model: string; instance_id: string; answer: number | string[] }[];
  summary: {
    per_family_window: Record<
      string,
      Record<string, { instances: number; clusters: number; resolved: number }>
    >;
    revisions: Record<string, { resolved: number; moved: number; flipped: number; examples: string[] }>;
  };
}

const jsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);

async function questionsOf(manifest: string, out: string, ...extra: string[]): Promise<Folder> {
  const argv = [
    'questions',
    '--manifest',
    manifest,
    '--model-cutoff',
    CUTOFF,
    '--run-date',
    RUN_DATE,
    '--out',
    out,
  ];
  const r = await run(...argv, ...extra);
  expect(r.code, `asof ${argv.join(' ')}\n${r.stderr}`).toBe(0);
  const dir = join(work, out);
  return {
    dir,
    questions: jsonl<Question>(join(dir, 'questions.jsonl')),
    resolutions: new Map(jsonl<Resolution>(join(dir, 'resolutions.jsonl')).map((x) => [x.instance_id, x])),
    baselines: jsonl(join(dir, 'baselines.jsonl')),
    summary: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).summary,
  };
}

/** Every instance's window agrees with its t and resolves_at; T1/T2 resolved, T3 open (issue 55's acceptance). */
function expectWindowsHold(f: Folder): void {
  const c = isoToMicros(`${CUTOFF}T00:00:00Z`);
  const r = isoToMicros(`${RUN_DATE}T00:00:00Z`);
  for (const q of f.questions) {
    const res = f.resolutions.get(q.instance_id);
    const t = isoToMicros(q.t);
    const at = q.resolves_at === null ? null : isoToMicros(q.resolves_at);
    const where = `${q.instance_id} ${q.family} ${q.window} t=${q.t} resolves_at=${q.resolves_at}`;
    expect(t, where).toBeLessThanOrEqual(r);
    if (q.window === 'T1') expect(at !== null && at < c, where).toBe(true);
    if (q.window === 'T2') expect(at !== null && t > c && at <= r, where).toBe(true);
    if (q.window === 'T3') expect(at === null && t > c, where).toBe(true);
    expect(res?.status, where).toBe(q.window === 'T3' ? 'open' : 'resolved');
    if (q.window === 'T3') expect(res?.value ?? res?.ranking ?? null, where).toBeNull();
    else expect(res?.value ?? res?.ranking ?? null, where).not.toBeNull();
  }
}

/** The id is the content's hash: the question without its id, window and resolves_at. */
function expectIdsAreContentHashes(f: Folder): void {
  for (const q of f.questions) {
    const { instance_id, window, resolves_at, ...content } = q;
    expect(sha256Hex(canonicalJson(content)).slice(0, 32)).toBe(instance_id);
  }
}

/** Inputs: at least one row per instance, and none published after the instance's t. */
async function expectInputsBeforeT(f: Folder): Promise<void> {
  const duck = await Duck.open({ threads: 2 });
  try {
    const q = quoteLiteral(join(f.dir, 'questions.parquet'));
    const i = quoteLiteral(join(f.dir, 'inputs.parquet'));
    const r = await duck.one<{ late: bigint; without: bigint; rows: bigint }>(
      `SELECT
         (SELECT count(*) FROM read_parquet(${i}) AS x JOIN read_parquet(${q}) AS y USING (instance_id)
          WHERE x.available_at > y.t) AS late,
         (SELECT count(*) FROM read_parquet(${q}) AS y
          WHERE instance_id NOT IN (SELECT instance_id FROM read_parquet(${i}))) AS without,
         (SELECT count(*) FROM read_parquet(${i})) AS rows`,
    );
    expect(Number(r.rows)).toBeGreaterThan(0);
    expect(Number(r.late), 'input rows published after their instance t').toBe(0);
    expect(Number(r.without), 'instances without any input row').toBe(0);
  } finally {
    duck.close();
  }
}

const BASELINES: Record<string, string[]> = {
  VAL: ['last_value'],
  RANK: ['momentum', 'random'],
  EVT: ['base_rate', 'coin_flip'],
  FUND: ['last_value'],
};

describe('asof questions on the default universe (cutoff 2021-12-31, run date 2025-12-31)', () => {
  let f: Folder;
  let universe: string;
  beforeAll(async () => {
    universe = (await defaultFixture()).universe;
    f = await questionsOf(join(universe, 'manifest.json'), 'q-default');
  }, 600_000);

  it('every family has instances in T1 and T2, the release families in T3; every T2 resolved, every T3 open', () => {
    const cells = f.summary.per_family_window;
    for (const family of ['VAL', 'RANK', 'EVT', 'FUND']) {
      expect(cells[family]?.T1?.instances, family).toBe(50);
      expect(cells[family]?.T2?.instances, family).toBe(50);
    }
    for (const family of ['VAL', 'EVT', 'FUND']) expect(cells[family]?.T3?.instances, family).toBe(50);
    expect(cells.RANK?.T3?.instances).toBeGreaterThan(0);
    expectWindowsHold(f);
    expectIdsAreContentHashes(f);
  });

  it("every instance carries its family's baselines, and T3 instances too", () => {
    const have = new Map<string, string[]>();
    for (const b of f.baselines) have.set(b.instance_id, [...(have.get(b.instance_id) ?? []), b.model]);
    for (const q of f.questions)
      expect(have.get(q.instance_id)?.sort(), q.instance_id).toEqual(BASELINES[q.family]);
  });

  it('inputs hold rows for every instance and none published after its t', async () => {
    await expectInputsBeforeT(f);
  });

  it('the folder verifies, and a rerun writes the same bytes', async () => {
    expect((await run('verify', join(f.dir, 'manifest.json'))).code).toBe(0);
    const again = await questionsOf(join(universe, 'manifest.json'), 'q-default-again');
    for (const name of readdirSync(f.dir).sort()) {
      expect(readFileSync(join(again.dir, name)).equals(readFileSync(join(f.dir, name))), name).toBe(true);
    }
    const seeded = await questionsOf(
      join(universe, 'manifest.json'),
      'q-default-seed',
      '--seed',
      '7',
      '--families',
      'VAL',
      '--per-family',
      '5',
    );
    expect(seeded.questions.map((q) => q.family).every((x) => x === 'VAL')).toBe(true);
    expect(seeded.questions).toHaveLength(15);
    expect(seeded.questions.some((q) => !f.questions.some((o) => o.instance_id === q.instance_id))).toBe(
      true,
    );
  }, 300_000);

  it('resolutions equal the first releases asof show gives at the release instant (10 per family)', async () => {
    const show = async (id: string, asOf: string) => {
      const r = await run('show', id, '--data', universe, '--as-of', asOf, '--json');
      expect(r.code, r.stderr).toBe(0);
      return new Map(
        (JSON.parse(r.stdout) as { period: string; value: number }[]).map((x) => [x.period, x.value]),
      );
    };
    const before = (iso: string) => microsToIso(isoToMicros(iso) - 1);
    for (const family of ['VAL', 'EVT', 'FUND', 'RANK'] as const) {
      const sample = f.questions.filter((q) => q.family === family && q.window !== 'T3').slice(0, 10);
      expect(sample, family).toHaveLength(10);
      for (const q of sample) {
        const res = f.resolutions.get(q.instance_id) as Resolution;
        const at = q.resolves_at as string;
        const where = `${q.instance_id} ${family} ${q.subjects[0]} ${q.target}`;
        if (family === 'RANK') {
          const start = q.t.slice(0, 10);
          const returns = new Map<string, number>();
          for (const s of q.subjects) {
            const v = await show(s, at);
            returns.set(s, (v.get(q.target) as number) / (v.get(start) as number) - 1);
          }
          for (const s of q.subjects)
            expect(res.returns?.[s], `${where} ${s}`).toBeCloseTo(returns.get(s) as number, 12);
          expect(res.ranking, where).toEqual(
            [...q.subjects].sort(
              (a, b) => (returns.get(b) as number) - (returns.get(a) as number) || (a < b ? -1 : 1),
            ),
          );
          continue;
        }
        const atRelease = await show(q.subjects[0], at);
        const first = atRelease.get(q.target);
        expect(first, where).toBeDefined();
        // A first release: the period (or bar) was not public an instant before.
        expect((await show(q.subjects[0], before(at))).has(q.target), where).toBe(false);
        if (family === 'EVT') {
          // The compared value is what asof show gave when it was first public.
          const reference = await show(q.subjects[0], q.reference_at as string);
          expect([...reference.values()], where).toContain(q.reference_value);
          expect(res.value, where).toBe((first as number) > (q.reference_value as number) ? 1 : 0);
        } else {
          expect(res.value, where).toBe(first);
        }
      }
    }
  }, 600_000);
});

describe('leakage canary: questions asked at or before t do not change when everything after t is poisoned', () => {
  // The poison (poison-universe.ts) changes every value published after t, delays each by 3 days and adds a
  // wild revision of every earlier value just after t. Instances asked at or before t — their text,
  // subjects, reference values, scorer parameters (all inside the instance_id), their inputs and the
  // baselines' answers — must be the same bytes. Window and resolves_at are about when the answer came,
  // after t, and are compared only where the answer was public before the cutoff (T1).
  const T = CANARY_T;
  let clean: Folder;
  let poisoned: Folder;
  beforeAll(async () => {
    // The canary pipeline with six instruments, so that RANK has cross-sections (it needs four members).
    writeFileSync(
      join(work, 'canary6.json'),
      JSON.stringify({
        ...CANARY_PIPELINE,
        name: 'canary6',
        sources: {
          ...CANARY_PIPELINE.sources,
          embedded: { synthetic: { ...CANARY_PIPELINE.sources.embedded.synthetic, instruments: 6 } },
        },
      }),
    );
    const built = await run('build', 'canary6.json', '--out', 'canary6');
    expect(built.code, built.stderr).toBe(0);
    await poisonUniverse(join(work, 'canary6'), join(work, 'canary6-poisoned'), T);
    const canary = { clean: join(work, 'canary6'), poisoned: join(work, 'canary6-poisoned') };
    const args = ['--model-cutoff', '2021-01-31', '--run-date', '2022-12-31', '--per-family', '400'];
    const one = async (universe: string, out: string) => {
      const r = await run('questions', '--manifest', join(universe, 'manifest.json'), '--out', out, ...args);
      expect(r.code, r.stderr).toBe(0);
      const dir = join(work, out);
      return {
        dir,
        questions: jsonl<Question>(join(dir, 'questions.jsonl')),
        resolutions: new Map(
          jsonl<Resolution>(join(dir, 'resolutions.jsonl')).map((x) => [x.instance_id, x]),
        ),
        baselines: jsonl<Folder['baselines'][number]>(join(dir, 'baselines.jsonl')),
        summary: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).summary,
      };
    };
    clean = await one(canary.clean, 'q-canary-clean');
    poisoned = await one(canary.poisoned, 'q-canary-poisoned');
  }, 600_000);

  const askedBy = (f: Folder) => f.questions.filter((q) => q.t <= microsToIso(isoToMicros(T)));
  const sameQuestion = (q: Question) => `${q.family}|${q.subjects.join(',')}|${q.t}|${q.target}|${q.horizon}`;

  it('the poison is real: answers after t differ', () => {
    const cleanIds = new Set(clean.questions.map((q) => q.instance_id));
    const changed = poisoned.questions.filter((q) => q.t > T && !cleanIds.has(q.instance_id));
    expect(changed.length).toBeGreaterThan(0);
  });

  it('T1 instances are the same bytes, resolution included', () => {
    const t1 = (f: Folder) => f.questions.filter((q) => q.window === 'T1');
    expect(t1(clean).length).toBeGreaterThan(20);
    expect(t1(poisoned)).toEqual(t1(clean));
    // Latest values are as known at the run date, so they carry the poison; the first releases do not.
    const firstRelease = (r: Resolution | undefined) => ({
      status: r?.status,
      value: r?.value,
      ranking: r?.ranking,
      returns: r?.returns,
    });
    for (const q of t1(clean)) {
      expect(firstRelease(poisoned.resolutions.get(q.instance_id))).toEqual(
        firstRelease(clean.resolutions.get(q.instance_id)),
      );
    }
  });

  it('every question asked by t in both runs has the same id (content), baselines and inputs', async () => {
    const byQuestion = new Map(askedBy(clean).map((q) => [sameQuestion(q), q]));
    const both = askedBy(poisoned).filter((q) => byQuestion.has(sameQuestion(q)));
    expect(both.length).toBeGreaterThan(askedBy(clean).length * 0.8);
    const families = new Set(both.map((q) => q.family));
    expect([...families].sort()).toEqual(['EVT', 'FUND', 'RANK', 'VAL']);
    for (const q of both)
      expect(q.instance_id, sameQuestion(q)).toBe(byQuestion.get(sameQuestion(q))?.instance_id);
    const ids = new Set(both.map((q) => q.instance_id));
    const answers = (f: Folder) => f.baselines.filter((b) => ids.has(b.instance_id));
    expect(answers(poisoned)).toEqual(answers(clean));
    const duck = await Duck.open({ threads: 2 });
    try {
      const rows = async (f: Folder) =>
        (
          await duck.all<{ line: string }>(
            `SELECT concat_ws('|', instance_id, series_id, epoch_us("timestamp"), epoch_us(available_at), value) AS line
             FROM read_parquet(${quoteLiteral(join(f.dir, 'inputs.parquet'))}) ORDER BY ALL`,
          )
        )
          .map((r) => r.line)
          .filter((line) => ids.has(line.slice(0, 32)));
      const cleanRows = await rows(clean);
      expect(cleanRows.length).toBeGreaterThan(0);
      expect(await rows(poisoned)).toEqual(cleanRows);
    } finally {
      duck.close();
    }
  });

  it("no instance's inputs hold a row published after its t, clean or poisoned", async () => {
    await expectInputsBeforeT(clean);
    await expectInputsBeforeT(poisoned);
  });
});

const ARCHIVE = join(SHARED, 'fixtures/real-archive');
describe.skipIf(!existsSync(ARCHIVE))('asof questions on the real-archive universe (needs ../shared)', () => {
  let f: Folder;
  beforeAll(async () => {
    const pipeline = {
      name: 'real-archive',
      eval_start: '2015-01-01',
      sources: {
        edgar: { raw_dir: join(ARCHIVE, 'sec') },
        fredmd: { raw_dir: join(ARCHIVE, 'macro') },
        rtdsm: { raw_dir: join(ARCHIVE, 'macro') },
        prices: {
          raw_dir: join(ARCHIVE, 'prices'),
          membership: [join(ARCHIVE, 'membership/sp500_ticker_start_end_fja05680_2025-11-16.csv')],
        },
      },
    };
    writeFileSync(join(work, 'archive.json'), JSON.stringify(pipeline));
    const r = await run('build', 'archive.json', '--out', 'archive');
    expect(r.code, r.stderr).toBe(0);
    f = await questionsOf('archive/manifest.json', 'q-archive');
  }, 600_000);

  it('counts per family and window; every T2 resolved, every T3 open', () => {
    const cells = f.summary.per_family_window;
    expect(cells.VAL?.T1?.instances).toBe(50);
    expect(cells.RANK?.T1?.instances).toBe(50);
    expect(cells.EVT?.T2?.instances).toBe(50);
    expect(cells.FUND?.T2?.instances).toBe(50);
    expect(cells.FUND?.T3?.instances).toBeGreaterThan(0);
    expectWindowsHold(f);
  });

  it('resolving on revised values would move FRED-MD and EDGAR answers, and flip some events', () => {
    const r = f.summary.revisions;
    expect(r.EVT.moved).toBeGreaterThan(0);
    expect(r.EVT.flipped).toBeGreaterThan(0);
    expect(r.FUND.moved).toBeGreaterThan(0);
    expect(r.EVT.examples.some((e) => e.includes('fredmd:'))).toBe(true);
    const moved = f.questions.filter((q) => f.resolutions.get(q.instance_id)?.moved);
    expect(moved.some((q) => q.subjects[0].startsWith('fredmd:'))).toBe(true);
    expect(moved.some((q) => q.subjects[0].startsWith('edgar:'))).toBe(true);
  });

  it('inputs hold no row published after t', async () => {
    await expectInputsBeforeT(f);
  });
});
