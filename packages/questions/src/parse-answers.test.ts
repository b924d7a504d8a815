import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { type ModelAnswers, parseAnswers } from './parse-answers.ts';
import type { QuestionRow } from './read-questions-folder.ts';

const dir = mkdtempSync(join(tmpdir(), 'asof-answers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const question = (id: string, family: QuestionRow['family'], subjects = ['s:x']): QuestionRow => ({
  instance_id: id,
  family,
  window: 'T2',
  cluster_id: id,
  subjects,
  scorer_params: {},
});
const questions = new Map<string, QuestionRow>([
  ['v1', question('v1', 'VAL')],
  ['e1', question('e1', 'EVT')],
  ['r1', question('r1', 'RANK', ['s:a', 's:b', 's:c'])],
  ['f1', question('f1', 'FUND')],
]);
const reserved = new Set(['last_value', 'base_rate']);

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function parse(path: string, into?: ModelAnswers) {
  return parseAnswers(path, { questions, reserved, into });
}

/** The InputError a file raises: its code, and a message naming the file, row, field and value. */
function refusal(path: string, into?: ModelAnswers): InputError {
  try {
    parse(path, into);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).exitCode).toBe(2);
    return err as InputError;
  }
  throw new Error(`${path} was accepted`);
}

function expectNamed(err: InputError, code: string, path: string, row: number, field: string, value: string) {
  expect(err.code).toBe(code);
  expect(err.message).toContain(`${path}: row ${row}, field ${field}: ${value}`);
  expect(err.message).toMatch(/\n {2}hint: \S/);
  expect(err.context).toMatchObject({ file: path, row, field });
}

describe('parseAnswers: good files', () => {
  it('CSV without a model column: the model is the file name; rankings joined by ;', () => {
    const path = file('my-model.csv', 'instance_id,answer\nv1,101.5\ne1,0.25\nr1,s:b; s:a;s:c\nf1,-3e2\n');
    const { answers, facts } = parse(path);
    expect([...answers.keys()]).toEqual(['my-model']);
    expect(Object.fromEntries(answers.get('my-model') as Map<string, unknown>)).toEqual({
      v1: 101.5,
      e1: 0.25,
      r1: ['s:b', 's:a', 's:c'],
      f1: -300,
    });
    expect(facts).toMatchObject({ name: 'my-model.csv', rows: 4, models: ['my-model'] });
    expect(facts.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('CSV with a model column (any column order, CRLF, quoted cells) and JSONL with and without model', () => {
    const csv = parse(file('two.csv', 'model,answer,instance_id\r\na,1,v1\r\n"b","0.5",e1\r\n'));
    expect([...csv.answers.keys()].sort()).toEqual(['a', 'b']);
    const jsonl = parse(
      file(
        'j.jsonl',
        '{"instance_id":"r1","answer":["s:c","s:b","s:a"]}\n\n{"instance_id":"e1","answer":1,"model":"m2"}\n',
      ),
    );
    expect(jsonl.answers.get('j')?.get('r1')).toEqual(['s:c', 's:b', 's:a']);
    expect(jsonl.answers.get('m2')?.get('e1')).toBe(1);
  });
});

describe('parseAnswers: every bad answer names file, row, field and value', () => {
  it('ANSWERS_UNKNOWN_ID and ANSWERS_MISSING_ID', () => {
    const p = file('unknown.csv', 'instance_id,answer\nv1,1\nnope,2\n');
    expectNamed(refusal(p), 'ANSWERS_UNKNOWN_ID', p, 3, 'instance_id', 'nope');
    const q = file('empty-id.csv', 'instance_id,answer\n,2\n');
    expectNamed(refusal(q), 'ANSWERS_MISSING_ID', q, 2, 'instance_id', "''");
    const j = file('no-id.jsonl', '{"answer":2}\n');
    expectNamed(refusal(j), 'ANSWERS_MISSING_ID', j, 1, 'instance_id', "''");
    const n = file('numeric-id.jsonl', '{"instance_id":5,"answer":2}\n');
    expectNamed(refusal(n), 'ANSWERS_UNKNOWN_ID', n, 1, 'instance_id', '5');
  });

  it('ANSWERS_DUPLICATE within a file and across files', () => {
    const p = file('dup.csv', 'instance_id,answer\nv1,1\nf1,2\nv1,3\n');
    expectNamed(refusal(p), 'ANSWERS_DUPLICATE', p, 4, 'instance_id', 'v1');
    const into: ModelAnswers = new Map();
    parse(file('m.csv', 'instance_id,answer\nv1,1\n'), into);
    const again = file('again.jsonl', '{"instance_id":"v1","answer":1,"model":"m"}\n');
    expectNamed(refusal(again, into), 'ANSWERS_DUPLICATE', again, 1, 'instance_id', 'v1');
  });

  it('ANSWERS_NOT_A_NUMBER (CSV text, JSONL string, empty cell, infinity)', () => {
    const p = file('nan.csv', 'instance_id,answer\nv1,abc\n');
    expectNamed(refusal(p), 'ANSWERS_NOT_A_NUMBER', p, 2, 'answer', 'abc');
    const e = file('empty.csv', 'instance_id,answer\nf1,\n');
    expectNamed(refusal(e), 'ANSWERS_NOT_A_NUMBER', e, 2, 'answer', "''");
    const inf = file('inf.csv', 'instance_id,answer\nf1,Infinity\n');
    expectNamed(refusal(inf), 'ANSWERS_NOT_A_NUMBER', inf, 2, 'answer', 'Infinity');
    const j = file('str.jsonl', '{"instance_id":"v1","answer":"12"}\n');
    expectNamed(refusal(j), 'ANSWERS_NOT_A_NUMBER', j, 1, 'answer', '12');
  });

  it('ANSWERS_PROBABILITY_RANGE for EVT answers outside [0, 1]', () => {
    const p = file('prob.csv', 'instance_id,answer\ne1,1.2\n');
    expectNamed(refusal(p), 'ANSWERS_PROBABILITY_RANGE', p, 2, 'answer', '1.2');
    const j = file('prob.jsonl', '{"instance_id":"e1","answer":-0.1}\n');
    expectNamed(refusal(j), 'ANSWERS_PROBABILITY_RANGE', j, 1, 'answer', '-0.1');
  });

  it('ANSWERS_BAD_RANKING: a subject missing, twice or unknown, or not a list', () => {
    const p = file('rank.csv', 'instance_id,answer\nr1,s:a;s:b\n');
    expectNamed(refusal(p), 'ANSWERS_BAD_RANKING', p, 2, 'answer', 's:a;s:b');
    const twice = file('rank2.csv', 'instance_id,answer\nr1,s:a;s:a;s:c\n');
    expectNamed(refusal(twice), 'ANSWERS_BAD_RANKING', twice, 2, 'answer', 's:a;s:a;s:c');
    const j = file('rank.jsonl', '{"instance_id":"r1","answer":"s:a;s:b;s:c"}\n');
    expectNamed(refusal(j), 'ANSWERS_BAD_RANKING', j, 1, 'answer', 's:a;s:b;s:c');
    const u = file('rank-u.jsonl', '{"instance_id":"r1","answer":["s:a","s:b","s:z"]}\n');
    expectNamed(refusal(u), 'ANSWERS_BAD_RANKING', u, 1, 'answer', '["s:a","s:b","s:z"]');
  });

  it('ANSWERS_MISSING_MODEL and ANSWERS_MODEL_IS_BASELINE', () => {
    const p = file('nomodel.csv', 'instance_id,answer,model\nv1,1, \n');
    expectNamed(refusal(p), 'ANSWERS_MISSING_MODEL', p, 2, 'model', "''");
    const b = file('base.jsonl', '{"instance_id":"v1","answer":1,"model":"last_value"}\n');
    expectNamed(refusal(b), 'ANSWERS_MODEL_IS_BASELINE', b, 1, 'model', 'last_value');
    const n = file('base_rate.csv', 'instance_id,answer\ne1,0.5\n');
    expectNamed(refusal(n), 'ANSWERS_MODEL_IS_BASELINE', n, 2, 'model', 'base_rate');
  });

  it('ANSWERS_BAD_HEADER and ANSWERS_BAD_ROW', () => {
    const h = file('header.csv', 'instance_id,value\nv1,1\n');
    expectNamed(refusal(h), 'ANSWERS_BAD_HEADER', h, 1, 'header', 'value');
    const h2 = file('header2.csv', 'instance_id\nv1\n');
    expectNamed(refusal(h2), 'ANSWERS_BAD_HEADER', h2, 1, 'header', 'instance_id');
    expect(refusal(h2).message).toContain('no answer column');
    const h3 = file('header3.csv', 'instance_id,answer,answer\nv1,1,1\n');
    expectNamed(refusal(h3), 'ANSWERS_BAD_HEADER', h3, 1, 'header', 'answer');
    const r = file('cells.csv', 'instance_id,answer\nv1,1,2\n');
    expectNamed(refusal(r), 'ANSWERS_BAD_ROW', r, 2, '(row)', 'v1,1,2');
    const j = file('bad.jsonl', '{"instance_id":"v1","answer":1}\n{oops\n');
    expectNamed(refusal(j), 'ANSWERS_BAD_ROW', j, 2, '(line)', '{oops');
    const a = file('array.jsonl', '[1,2]\n');
    expectNamed(refusal(a), 'ANSWERS_BAD_ROW', a, 1, '(line)', '[1,2]');
    const x = file('extra.jsonl', '{"instance_id":"v1","answer":1,"note":"hi"}\n');
    expectNamed(refusal(x), 'ANSWERS_BAD_ROW', x, 1, 'note', 'hi');
    const m = file('noanswer.jsonl', '{"instance_id":"v1"}\n');
    expectNamed(refusal(m), 'ANSWERS_BAD_ROW', m, 1, 'answer', '{"instance_id":"v1"}');
  });

  it('ANSWERS_EMPTY, ANSWERS_NOT_FOUND and ANSWERS_UNKNOWN_FORMAT name the file', () => {
    const e = file('none.csv', 'instance_id,answer\n');
    expect(refusal(e).code).toBe('ANSWERS_EMPTY');
    expect(refusal(e).message).toContain(e);
    const missing = join(dir, 'missing.csv');
    expect(refusal(missing).code).toBe('ANSWERS_NOT_FOUND');
    expect(refusal(missing).message).toContain(missing);
    const parquet = file('x.parquet', 'PAR1');
    expect(refusal(parquet).code).toBe('ANSWERS_UNKNOWN_FORMAT');
    expect(refusal(parquet).message).toContain(parquet);
  });
});
