import { AccountingTally, type IngestAccounting } from '@asof/schema';

/**
 * The fate of every fact row of one company's companyfacts files (docs/decisions/0046): each row is mapped
 * (it became a row, repeated a value its period already holds, or fed a derivation) or dropped under one
 * reason. Rows of concepts asof reads get an id and are settled one by one as the parser and the
 * derivation decide; rows asof never opens (unmapped concepts, an IFRS filer's facts) are counted in bulk.
 * A mapped mark wins over any drop (a fact read by two categories counts once); among drops, the first wins.
 */
export class FactLedger {
  private readonly files: string[] = [];
  private readonly fileOf: number[] = [];
  private readonly fate: (string | undefined)[] = [];
  private readonly bulk: Map<string, number>[] = [];

  /** Registers a companyfacts file by its input key; returns its index. */
  addFile(file: string): number {
    this.files.push(file);
    this.bulk.push(new Map());
    return this.files.length - 1;
  }

  /** Allocates `n` consecutive row ids of `file`; returns the first. */
  allocate(file: number, n: number): number {
    const first = this.fate.length;
    for (let i = 0; i < n; i++) {
      this.fileOf.push(file);
      this.fate.push(undefined);
    }
    return first;
  }

  map(id: number): void {
    this.fate[id] = MAPPED;
  }

  drop(id: number, reason: string): void {
    if (this.fate[id] === undefined) this.fate[id] = reason;
  }

  /** `n` rows of `file` never opened one by one (e.g. an unmapped concept), all for one reason. */
  dropBulk(file: number, reason: string, n: number): void {
    if (n > 0) this.bulk[file].set(reason, (this.bulk[file].get(reason) ?? 0) + n);
  }

  /** Every row of every file to one reason, whatever was decided before (an IFRS filer is skipped whole). */
  dropAll(reason: string): void {
    this.fate.fill(reason);
    for (const b of this.bulk) {
      const n = [...b.values()].reduce((a, c) => a + c, 0);
      b.clear();
      if (n > 0) b.set(reason, n);
    }
  }

  /** Rows not settled yet get `reason` (rows of a skipped company that never reached the derivation). */
  settleRest(reason: string): void {
    for (let i = 0; i < this.fate.length; i++) this.fate[i] ??= reason;
  }

  /** One accounting entry per file. A row left unsettled shows as `unsettled`, which tests refuse. */
  entries(): IngestAccounting[] {
    const tallies = this.files.map((f) => new AccountingTally('edgar', f, 'fact'));
    this.fate.forEach((fate, id) => {
      const t = tallies[this.fileOf[id]];
      if (fate === MAPPED) t.map();
      else t.drop(fate ?? 'unsettled');
    });
    this.bulk.forEach((b, i) => {
      for (const [reason, n] of b) tallies[i].drop(reason, n);
    });
    return tallies.map((t) => t.entry());
  }
}

const MAPPED = '\u0000mapped';
