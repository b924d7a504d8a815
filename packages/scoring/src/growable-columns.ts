import type { CodedText } from './align-forecasts.ts';

const BLOCK = 1 << 20;

/**
 * A column of numbers of unknown final length, filled in fixed blocks (no doubling, so no 2× over-allocation
 * while reading) and joined into one typed array at the end. Two concrete classes rather than one generic:
 * each push site then stores into one element kind (monomorphic), which is most of the read time.
 */
export class Float64Column {
  private readonly blocks: Float64Array[] = [];
  private current = new Float64Array(BLOCK);
  private fill = 0;
  length = 0;

  push(v: number): void {
    if (this.fill === BLOCK) {
      this.blocks.push(this.current);
      this.current = new Float64Array(BLOCK);
      this.fill = 0;
    }
    this.current[this.fill++] = v;
    this.length++;
  }

  /** The values as one array; the column is empty afterwards. */
  finish(): Float64Array {
    const out = new Float64Array(this.length);
    joinBlocks(out, this.blocks, this.current, this.fill);
    this.blocks.length = 0;
    this.current = new Float64Array(0);
    this.fill = BLOCK;
    this.length = 0;
    return out;
  }
}

export class Uint32Column {
  private readonly blocks: Uint32Array[] = [];
  private current = new Uint32Array(BLOCK);
  private fill = 0;
  length = 0;

  push(v: number): void {
    if (this.fill === BLOCK) {
      this.blocks.push(this.current);
      this.current = new Uint32Array(BLOCK);
      this.fill = 0;
    }
    this.current[this.fill++] = v;
    this.length++;
  }

  /** The values as one array; the column is empty afterwards. */
  finish(): Uint32Array {
    const out = new Uint32Array(this.length);
    joinBlocks(out, this.blocks, this.current, this.fill);
    this.blocks.length = 0;
    this.current = new Uint32Array(0);
    this.fill = BLOCK;
    this.length = 0;
    return out;
  }
}

function joinBlocks<T extends Float64Array | Uint32Array>(
  out: T,
  blocks: T[],
  current: T,
  fill: number,
): void {
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  out.set(current.subarray(0, fill), at);
}

/**
 * A text column stored as one code per row and each distinct string once (model, series and origin
 * columns repeat a few thousand strings millions of times).
 */
export class CodedTextColumn {
  private readonly codes = new Uint32Column();
  private readonly index = new Map<unknown, number>();
  private readonly dictionary: string[] = [];
  private lastKey: unknown;
  private lastCode = -1;

  /**
   * Appends a row. `key` identifies the value (the text itself, or e.g. a timestamp's epoch ms) and
   * `text` makes its string the first time the key is seen.
   */
  push(key: unknown, text: (key: unknown) => string = String): void {
    // Rows come in runs (one model, one series, one origin at a time): skip the hash lookup for a repeat.
    if (key === this.lastKey && this.lastCode >= 0) {
      this.codes.push(this.lastCode);
      return;
    }
    let code = this.index.get(key);
    if (code === undefined) {
      code = this.dictionary.length;
      // Copies, not slices: a substring would keep the whole chunk of file text it came from alive.
      this.index.set(typeof key === 'string' ? copyString(key) : key, code);
      this.dictionary.push(copyString(text(key)));
    }
    this.lastKey = key;
    this.lastCode = code;
    this.codes.push(code);
  }

  get length(): number {
    return this.codes.length;
  }

  finish(): CodedText {
    return { codes: this.codes.finish(), dictionary: this.dictionary };
  }
}

/** A fresh flat string with the same UTF-16 code units (lone surrogates included). */
function copyString(s: string): string {
  return s.split('').join('');
}
