import dns from 'node:dns';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    const { readFileSync } = await import('node:fs');
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
