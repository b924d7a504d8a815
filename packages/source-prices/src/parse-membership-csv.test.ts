import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isoToMicros, microsToIso } from '@asof/calendar';
import { CollectingSink, InputError } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import {
  ingestMembershipCsv,
  membershipIntervals,
  parseMembershipCsv,
  parseMembershipFile,
} from './parse-membership-csv.ts';

const HEADER = 'entity_id,universe,action,effective_date,announced,note';
const iso = (us: number | null) => (us === null ? null : microsToIso(us));

describe('parseMembershipCsv and membershipIntervals', () => {
  it('turns an addition and a removal into one interval counted from each announcement', () => {
    const text = [
      HEADER,
      'ticker:AAA,sp500,add,2015-01-02,2015-01-02,initial member',
      // Removal announced after the close, effective a week later.
      'ticker:AAA,sp500,remove,2021-03-22,2021-03-12T21:15:00Z,',
      // Addition announced (date only) before its effective date.
      'ticker:BBB,sp500,add,2021-03-22,2021-03-12,replaces AAA',
    ].join('\n');
    const rows = membershipIntervals(parseMembershipCsv(text, 'sp500.csv'), 'sp500.csv');
    expect(
      rows.map((r) => [
        r.entity_id,
        iso(r.from),
        iso(r.to),
        iso(r.available_at),
        r.effective_from,
        r.effective_to,
      ]),
    ).toEqual([
      // A date without a time is the end of that day in New York.
      ['ticker:AAA', '2015-01-03T04:59:59.999999Z', null, '2015-01-03T04:59:59.999999Z', '2015-01-02', null],
      [
        'ticker:AAA',
        '2015-01-03T04:59:59.999999Z',
        '2021-03-12T21:15:00.000000Z',
        '2021-03-12T21:15:00.000000Z',
        '2015-01-02',
        '2021-03-22',
      ],
      ['ticker:BBB', '2021-03-13T04:59:59.999999Z', null, '2021-03-13T04:59:59.999999Z', '2021-03-22', null],
    ]);
    expect(rows.every((r) => r.source === 'membership_csv' && r.universe === 'sp500')).toBe(true);
    expect(rows[1].source_ref).toBe('sp500.csv:3');
    expect(rows[2].source_ref).toBe('sp500.csv:4 replaces AAA');
  });

  it('takes the rows in announcement order, whatever the file order; columns in any order and case', () => {
    const text = [
      'Announced,Action,Entity_ID,Universe,Effective_Date',
      '2020-06-01,remove,X,idx,2020-06-05',
      '2019-01-02,add,X,idx,2019-01-02',
      '2021-01-04,add,X,idx,2021-01-04',
    ].join('\r\n');
    const rows = membershipIntervals(parseMembershipCsv(text, 'f.csv'), 'f.csv');
    expect(rows.map((r) => [r.effective_from, r.effective_to, r.to !== null])).toEqual([
      ['2019-01-02', null, false],
      ['2019-01-02', '2020-06-05', true],
      ['2021-01-04', null, false],
    ]);
  });

  const bad: [string, string, RegExp][] = [
    [
      'impossible date',
      'X,idx,add,2021-02-30,2021-02-01',
      /f\.csv line 2, field effective_date: "2021-02-30".*February 2021 has 28 days/,
    ],
    [
      'zone-less instant',
      'X,idx,add,2021-02-01,2021-02-01T16:00:00',
      /f\.csv line 2, field announced: .*no time zone/,
    ],
    [
      'action',
      'X,idx,join,2021-02-01,2021-02-01',
      /f\.csv line 2, field action: "join" is not add or remove/,
    ],
    [
      'entity id',
      'X Y,idx,add,2021-02-01,2021-02-01',
      /f\.csv line 2, field entity_id: "X Y" is not an entity id/,
    ],
    ['reserved universe', 'X,listed,add,2021-02-01,2021-02-01', /field universe: "listed" is reserved/],
    ['ragged row', 'X,idx,add,2021-02-01', /f\.csv line 2: 4 fields, the header has 5/],
  ];
  for (const [what, line, message] of bad) {
    it(`refuses a bad ${what} in one line naming file, row and field`, () => {
      const text = `entity_id,universe,action,effective_date,announced\n${line}\n`;
      expect(() => parseMembershipCsv(text, 'f.csv')).toThrow(message);
      try {
        parseMembershipCsv(text, 'f.csv');
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        expect((e as Error).message).not.toContain('\n');
        expect((e as InputError).exitCode).toBe(2);
      }
    });
  }

  it('refuses a missing column, a header without rows, and inconsistent change sequences', () => {
    expect(() =>
      parseMembershipCsv('entity_id,universe,action,announced\nX,i,add,2021-01-04', 'f.csv'),
    ).toThrow(/f\.csv line 1: no column effective_date/);
    expect(() => parseMembershipCsv(`${HEADER}\n`, 'f.csv')).toThrow(/header but no changes/);
    const seq =
      (...lines: string[]) =>
      () =>
        membershipIntervals(parseMembershipCsv([HEADER, ...lines].join('\n'), 'f.csv'), 'f.csv');
    expect(seq('X,i,remove,2021-01-04,2021-01-04,')).toThrow(/line 2: removes X from i, which no earlier/);
    expect(seq('X,i,add,2021-01-04,2021-01-04,', 'X,i,add,2021-02-01,2021-02-01,')).toThrow(
      /line 3: adds X to i, a member since line 2/,
    );
    expect(seq('X,i,add,2021-01-04,2021-01-04,', 'X,i,remove,2021-01-08,2021-01-04,')).toThrow(
      /lines 2 and 3: two changes of X in i announced at one instant/,
    );
  });

  it('ingestMembershipCsv lists the file as a raw input and stages its rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'asof-membership-'));
    try {
      const path = join(dir, 'idx.csv');
      const text = `${HEADER}\nX,idx,add,2021-01-04,2021-01-04T14:30:00Z,\n`;
      writeFileSync(path, text);
      const sink = new CollectingSink();
      const r = ingestMembershipCsv(path, sink, 'membership/idx.csv');
      expect(r).toEqual({
        file: 'membership/idx.csv',
        shape: 'changes',
        changes: 1,
        entities: 1,
        universes: ['idx'],
      });
      expect(sink.accounting.map((a) => [a.record, a.read, a.mapped])).toEqual([['row', 1, 1]]);
      expect(sink.inputs.map((i) => [i.source, i.key, i.bytes])).toEqual([
        ['prices:membership', 'membership/idx.csv', Buffer.byteLength(text)],
      ]);
      expect(sink.memberships.map((m) => [m.entity_id, m.from])).toEqual([
        ['X', isoToMicros('2021-01-04T14:30:00Z')],
      ]);
      expect(() => ingestMembershipCsv(join(dir, 'missing.csv'), sink, 'missing.csv')).toThrow(
        /missing\.csv: cannot read the membership file \(ENOENT\)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('index membership files of other shapes (decision 0045)', () => {
  const at = (date: string) => microsToIso(isoToMicros(`${date}T09:30:00-05:00`));
  it('date,add,remove: quoted tickers, several per cell, each at its date 09:30 New York; a first removal means a member before the file', () => {
    const text =
      'date,add,remove\n2019-01-18,"TFX","PCG"\n2019-06-03,"CTVA,DD","FLR,DWDP"\n2019-08-09,"","TFX"\n';
    const f = parseMembershipFile(text, 'sp500_changes.csv');
    expect(f.shape).toBe('index_changes');
    const rows = membershipIntervals(f.changes, 'sp500_changes.csv', {
      membersBeforeFile: f.membersBeforeFile,
    });
    const pcg = rows
      .filter((r) => r.entity_id === 'ticker:PCG')
      .map((r) => [iso(r.from), iso(r.to), iso(r.available_at)]);
    expect(pcg).toEqual([
      [null, null, null],
      [null, at('2019-01-18'), at('2019-01-18')],
    ]);
    const tfx = rows.filter((r) => r.entity_id === 'ticker:TFX').map((r) => [iso(r.from), iso(r.to)]);
    expect(tfx).toEqual([
      [at('2019-01-18'), null],
      [at('2019-01-18'), microsToIso(isoToMicros('2019-08-09T09:30:00-04:00'))],
    ]);
    expect(new Set(f.changes.map((c) => c.universe))).toEqual(new Set(['sp500']));
  });

  it('ticker,start_date,end_date: several spells per ticker, an empty end is a current member', () => {
    const text =
      'ticker,start_date,end_date\nAAL,1996-01-02,1997-01-15\nAAL,2015-03-23,2024-09-23\nA,2000-06-05,\n';
    const f = parseMembershipFile(text, 'sp500_ticker_start_end.csv');
    expect(f.shape).toBe('ticker_spans');
    const rows = membershipIntervals(f.changes, 'x');
    expect(
      rows.filter((r) => r.to !== null).map((r) => [r.entity_id, r.effective_from, r.effective_to]),
    ).toEqual([
      ['ticker:AAL', '1996-01-02', '1997-01-15'],
      ['ticker:AAL', '2015-03-23', '2024-09-23'],
    ]);
  });

  it('a constituents snapshot: every symbol from the snapshot date (its file name), known at that day end; a duplicate row is accounted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'asof-snap-'));
    const path = join(dir, 'sp500_constituents_2019-11-16.csv');
    writeFileSync(
      path,
      'Symbol,Security,Date first added,CIK\nMMM,3M,,66740\nBF.B,Brown-Forman,1982-10-31,14693\nMMM,3M,,66740\n',
    );
    const sink = new CollectingSink();
    const r = ingestMembershipCsv(path, sink, 'sp500_constituents_2019-11-16.csv');
    expect(r.shape).toBe('constituents');
    expect(
      sink.memberships.map((m) => [m.entity_id, iso(m.from), iso(m.available_at), m.effective_from]),
    ).toEqual([
      ['ticker:MMM', '2019-11-17T04:59:59.999999Z', '2019-11-17T04:59:59.999999Z', '2019-11-16'],
      ['ticker:BF.B', '2019-11-17T04:59:59.999999Z', '2019-11-17T04:59:59.999999Z', '1982-10-31'],
    ]);
    expect(sink.accounting.map(({ mappable: _, ...a }) => a)).toEqual([
      {
        source: 'prices',
        file: 'sp500_constituents_2019-11-16.csv',
        record: 'row',
        read: 3,
        mapped: 2,
        dropped: { duplicate: 1 },
      },
    ]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a header of no known shape is an error naming the file', () => {
    expect(() => parseMembershipFile('a,b\n1,2\n', 'x.csv')).toThrow(
      /^x\.csv line 1: "a,b" is no membership file header/,
    );
  });
});
