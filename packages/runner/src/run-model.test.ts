import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duck, quoteLiteral } from '@asof/duck';
import { readAsofParquetMetadata } from '@asof/output';
import { AsofError } from '@asof/schema';
import { RunRecord } from '@asof/scoring';
import { writeRunnerFixture } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelRunError } from './model-run-error.ts';
import { ForecastReply, ModelHello, RunnerMessage } from './protocol.ts';
import { type RunModelOptions, runModel } from './run-model.ts';
import { readRunRecords } from './run-record.ts';

const FAKE = fileURLToPath(new URL('../test-models/fake-model.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'asof-runner-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let manifest = '';
let compact = '';
beforeAll(async () => {
  const splits = await writeRunnerFixture(root, {
    split: { lookback: { BD: 20, M: 6, Q: 4 } },
    compact: { lookback: { BD: 20, M: 6, Q: 4 }, layout: 'compact' },
  });
  manifest = splits.split;
  compact = splits.compact;
}, 120_000);

let n = 0;
function options(mode: string, kind = 'point', extra: Partial<RunModelOptions> = {}): RunModelOptions {
  return {
    manifestPath: manifest,
    command: `${JSON.stringify(process.execPath)} ${FAKE} ${mode} ${kind}`,
    name: 'fake',
    outPath: join(root, `out-${n++}.parquet`),
    cwd: root,
    timeoutSeconds: 30,
    runner: { name: 'asof', version: 'test' },
    ...extra,
  };
}

async function forecastRows(file: string): Promise<Record<string, unknown>[]> {
  const duck = await Duck.open({ threads: 1 });
  try {
    return await duck.all(
      `SELECT * FROM read_parquet(${quoteLiteral(file)}) ORDER BY series_id, origin, step`,
    );
  } finally {
    duck.close();
  }
}

/** Runs a failing model: the error, with nothing at the output path and no temp folder left in its store. */
async function failure(
  mode: string,
  kind = 'point',
  extra: Partial<RunModelOptions> = {},
): Promise<ModelRunError> {
  const o = options(mode, kind, extra);
  const err = await runModel(o).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, mode).toBeInstanceOf(ModelRunError);
  const e = err as ModelRunError;
  expect(e.exitCode).toBe(1);
  expect(e.message).not.toContain('\n');
  expect(existsSync(o.outPath), `${mode} left ${o.outPath}`).toBe(false);
  const store = join(root, '.asof', o.outPath.split('/').pop()!);
  expect(existsSync(store) ? readdirSync(store).filter((f) => f.startsWith('tmp-')) : []).toEqual([]);
  return e;
}

describe('runModel: a model through the protocol', { timeout: 120_000 }, () => {
  it('writes every path of every pair, with the run record in the footer', async () => {
    const o = options('ok', 'quantiles');
    const r = await runModel(o);
    const rows = await forecastRows(r.path);
    const duck = await Duck.open({ threads: 1 });
    const points = await duck.all<{ n: bigint; pairs: bigint }>(
      `SELECT sum(horizon_steps) AS n, count(*) AS pairs FROM read_parquet(${quoteLiteral(join(root, 'split', 'origins.parquet'))})`,
    );
    // origin is stored as the split's origins.parquet stores it (issue 51 item 7): the same Parquet type.
    const originType = (file: string) =>
      duck.all(
        `SELECT type, logical_type, converted_type FROM parquet_schema(${quoteLiteral(file)}) WHERE name = 'origin'`,
      );
    const splitType = await originType(join(root, 'split', 'origins.parquet'));
    expect(splitType).toEqual([expect.objectContaining({ converted_type: 'TIMESTAMP_MICROS' })]);
    expect(await originType(r.path)).toEqual(splitType);
    duck.close();
    expect(rows.length).toBe(Number(points[0].n));
    expect(Object.keys(rows[0])).toEqual([
      'model',
      'series_id',
      'origin',
      'step',
      'value',
      'q0.05',
      'q0.5',
      'q0.95',
    ]);
    expect(rows.every((x) => x.model === 'fake')).toBe(true);
    const meta = readAsofParquetMetadata(r.path)!;
    expect(meta.kind).toBe('forecasts');
    expect(meta.models).toEqual(['fake']);
    const record = RunRecord.parse(meta.run);
    expect(record).toEqual(r.record);
    expect(record.pairs).toEqual({
      asked: Number(points[0].pairs),
      forecast: Number(points[0].pairs),
      skipped: 0,
    });
    expect(record.guard.requests).toBe(Number(points[0].pairs));
    expect(record.guard.rows).toBeGreaterThan(record.guard.requests);
    expect(record.forecast_kind).toBe('quantiles');
    expect(record.fit?.rows).toBeGreaterThan(100);
    expect(record.model_reported).toEqual({ name: 'fake', version: null });
    expect(record.protocol_version).toBe(1);
    // The files the command names: node (the program) and the model script, hashed.
    expect(record.files.map((f) => f.path)).toEqual([process.execPath, FAKE]);
    expect(record.files[1].bytes).toBe(readFileSync(FAKE).length);
    expect(readRunRecords([r.path])).toEqual([record]);
  });

  it('takes samples, skipped pairs and a model that declines the fit', async () => {
    const s = await runModel(options('ok', 'samples'));
    expect(Object.keys((await forecastRows(s.path))[0])).toEqual([
      'model',
      'series_id',
      'origin',
      'step',
      'value',
      's1',
      's2',
      's3',
    ]);
    const k = await runModel(options('skip'));
    expect(k.record.pairs.skipped).toBeGreaterThan(0);
    expect(k.record.pairs.forecast + k.record.pairs.skipped).toBe(k.record.pairs.asked);
    const f = await runModel(options('no-fit'));
    expect(f.record.fit).toBeNull();
  });

  it('serves a compact split the same forecasts as the per-origin one', async () => {
    const a = await runModel(options('ok'));
    const b = await runModel({ ...options('ok'), manifestPath: compact });
    expect(await forecastRows(b.path)).toEqual(await forecastRows(a.path));
    expect(b.record.guard).toEqual(a.record.guard);
  });

  it('replaces an earlier run, and leaves it as it was when a run fails', async () => {
    const o = options('ok');
    await runModel(o);
    const before = readFileSync(o.outPath);
    const err = await runModel({ ...o, command: o.command.replace(' ok ', ' crash ') }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelRunError);
    expect(readFileSync(o.outPath).equals(before)).toBe(true);
    const again = await runModel(o);
    expect(again.path).toBe(o.outPath);
  });

  it('runs beforeSwitch on the finished file before it replaces the output; a throw there keeps the old file', async () => {
    const o = options('ok');
    const seen: { file: string; rows: number; model: string; bytes: number }[] = [];
    const r = await runModel({
      ...o,
      beforeSwitch: async ({ file, rows, record }) => {
        // The file is complete and not yet at the output path.
        expect(existsSync(o.outPath)).toBe(false);
        seen.push({ file, rows, model: record.model, bytes: readFileSync(file).length });
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ rows: r.rows, model: 'fake', bytes: readFileSync(r.path).length });
    expect(seen[0].file).not.toBe(r.path);
    const before = readFileSync(o.outPath);
    const refused = new AsofError('REFUSED', 'refused by the check');
    const err = await runModel({
      ...o,
      beforeSwitch: async () => {
        throw refused;
      },
    }).catch((e) => e);
    expect(err).toBe(refused);
    expect(readFileSync(o.outPath).equals(before)).toBe(true);
    const store = join(root, '.asof', o.outPath.split('/').pop()!);
    expect(existsSync(store) ? readdirSync(store).filter((f) => f.startsWith('tmp-')) : []).toEqual([]);
  });

  it.each([
    ['error', 'MODEL_ERROR', /the model reported an error: out of memory/],
    ['malformed', 'MODEL_MALFORMED_REPLY', /not JSON: "\{\\"type\\":\\"forecast\\",\\"batch\\":2,"/],
    ['unasked', 'MODEL_UNASKED_PAIR', /series x:not-asked: the batch does not ask for this series/],
    ['missing-step', 'MODEL_MISSING_STEP', /point has \d+ step\(s\), missing step \d+ of 1…\d+/],
    ['extra-step', 'MODEL_EXTRA_STEP', /point has \d+ steps, but the horizon is \d+/],
    ['nan', 'MODEL_NOT_FINITE', /point step 3 is NaN; every value must be a finite number/],
    ['null', 'MODEL_NOT_FINITE', /point step 1 is null/],
    ['missing-pair', 'MODEL_MISSING_PAIR', /no path; answer every task/],
    ['duplicate', 'MODEL_DUPLICATE_PAIR', /answered twice/],
    ['wrong-batch', 'MODEL_WRONG_BATCH', /the reply is for batch 3/],
    [
      'crash',
      'MODEL_EXITED',
      /the model exited with status 3; its last stderr line: "fake: segmentation fault \(pretend\)"/,
    ],
    ['extra-line', 'MODEL_MALFORMED_REPLY', /batch 3 .*got type "ready"/],
  ])(
    'fails on %s with exit 1, one line naming the origin and series, nothing written',
    async (mode, code, text) => {
      const e = await failure(mode);
      expect(e.code).toBe(code);
      expect(e.message).toMatch(text);
      expect(e.message).toMatch(
        /^model fake, batch \d+ \(origin \d{4}-\d\d-\d\dT[\d:.]+Z(, series \S+( and \d+ more)?)?\)/,
      );
      expect(e.message).toMatch(/series \S+/);
    },
  );

  it('fails on crossing quantiles', async () => {
    const e = await failure('crossing', 'quantiles');
    expect(e.code).toBe('MODEL_QUANTILES_CROSS');
    expect(e.message).toMatch(
      /batch 2 \(origin .*\), series \S+: step 1: quantile 0.5 .* is below quantile 0.05/,
    );
  });

  it('stops a model that does not answer within --timeout-s, and kills it', async () => {
    const t = Date.now();
    const e = await failure('timeout', 'point', { timeoutSeconds: 1 });
    expect(e.code).toBe('MODEL_TIMEOUT');
    expect(e.message).toMatch(
      /^model fake, batch 2 \(origin \S+, series \S+.*\): no answer within --timeout-s 1; the model was stopped/,
    );
    expect(Date.now() - t).toBeLessThan(20_000);
  });

  it('fails on a bad hello, stdout noise and an exit status other than 0 after bye', async () => {
    expect((await failure('bad-hello')).message).toMatch(
      /^model fake, hello: protocol: this runner speaks version 1/,
    );
    expect((await failure('stdout-noise')).message).toMatch(
      /^model fake, hello: the model wrote a line that is not JSON: "loading weights…"/,
    );
    expect((await failure('exit-1-after-bye')).message).toMatch(
      /^model fake, after bye: the model exited with status 1/,
    );
  });

  it('refuses a program that does not exist, a baseline name and a shell pipeline as bad input', async () => {
    const bad = async (o: Partial<RunModelOptions>) => {
      const e = await runModel({ ...options('ok'), ...o }).catch((x) => x);
      expect(e).toBeInstanceOf(AsofError);
      expect((e as AsofError).exitCode).toBe(2);
      return e as AsofError;
    };
    expect((await bad({ command: 'no-such-model-program --x' })).message).toMatch(
      /cannot start "no-such-model-program": no such program/,
    );
    expect((await bad({ name: 'random_walk' })).code).toBe('RUN_BASELINE_NAME');
    expect((await bad({ command: 'python3 m.py | tee log' })).code).toBe('MODEL_COMMAND_SHELL');
  });

  it('never lets the forecasts replace the model script or a file of the split', async () => {
    const script = join(root, 'model.parquet');
    writeFileSync(script, 'not a model');
    const e = await runModel({
      ...options('ok'),
      command: `${process.execPath} ${FAKE} ok ${script}`,
      outPath: script,
    }).catch((x) => x);
    expect((e as AsofError).exitCode).toBe(2);
    expect(readFileSync(script, 'utf8')).toBe('not a model');
    const listed = join(root, 'split', 'origins.parquet');
    const f = await runModel({ ...options('ok'), outPath: listed }).catch((x) => x);
    expect((f as AsofError).exitCode).toBe(2);
  });

  it('sends only messages of the protocol, in its order: hello, fit_start, fit…, fit_end, predict…, bye', async () => {
    const file = join(root, 'sent.jsonl');
    await runModel({ ...options('ok'), command: `${process.execPath} ${FAKE} record ${file}` });
    const sent = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => RunnerMessage.parse(JSON.parse(l)));
    const types = sent.map((m) => m.type);
    expect(types[0]).toBe('hello');
    expect(types[1]).toBe('fit_start');
    const fits = types.lastIndexOf('fit');
    expect(types.slice(2, fits + 1).every((t) => t === 'fit')).toBe(true);
    expect(types[fits + 1]).toBe('fit_end');
    expect(types.slice(fits + 2, -1).every((t) => t === 'predict')).toBe(true);
    expect(types.at(-1)).toBe('bye');
    const hello = sent[0] as Extract<(typeof sent)[number], { type: 'hello' }>;
    expect(hello.frequencies).toEqual(['BD', 'M', 'Q']);
    expect(hello.horizons).toEqual({ BD: 260, M: 12, Q: 4 });
    expect(hello.split.train_cutoff).toBe('2020-01-01T00:00:00.000000Z');
    expect(hello.accepts.quantiles).toHaveLength(19);
    // The model's own answers parse too (the schema it is checked against).
    expect(ModelHello.parse({ type: 'hello', protocol: 1 }).fit).toBe(true);
    expect(
      ForecastReply.safeParse({ type: 'forecast', batch: 1, paths: [{ series_id: 'a', skip: true }] })
        .success,
    ).toBe(true);
  });
});
