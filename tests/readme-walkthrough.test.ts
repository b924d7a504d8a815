import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, SCRATCH, SHARED } from './helpers.ts';
import { pythonWith, requirePython } from './python-available.ts';

// README.md's code blocks, run literally and in order on the default universe (issue 16: the docs cannot
// drift). `sh` blocks run in bash from a working copy of the repository root (below), `python` blocks with a
// Python that has pandas;
// blocks without a language (layouts, command lists) are not programs. Two commands are not run here, each
// for a reason: `npm ci` (CI has just run it; running it again would reinstall the tree under this test) and
// `npm test` (the command running this test).

interface Block {
  lang: string;
  code: string;
  section: string;
}

function readmeBlocks(): Block[] {
  const text = readFileSync(join(REPO, 'README.md'), 'utf8');
  const blocks: Block[] = [];
  let section = '';
  let open: { lang: string; lines: string[] } | null = null;
  for (const line of text.split('\n')) {
    if (open) {
      if (line.startsWith('```')) {
        blocks.push({ lang: open.lang, code: open.lines.join('\n'), section });
        open = null;
      } else open.lines.push(line);
    } else if (line.startsWith('```')) open = { lang: line.slice(3).trim(), lines: [] };
    else if (line.startsWith('## ')) section = line.slice(3).trim();
  }
  return blocks;
}

/** The block as this test runs it (see the header for the two commands left out). */
function runnable(code: string): string | null {
  if (code.trim() === 'npm test') return null;
  return code.replace(/^npm ci && npm start$/m, 'npm start');
}

/**
 * The walkthrough's working copy: every entry of the checkout linked (package.json, node_modules, pipelines,
 * examples…) but out/, which is its own, and ../shared linked beside it. The README's commands write out/…
 * relative to where they run: run here, they leave the user's out/ (their own default build, say) alone (issue 50).
 */
function walkthroughCheckout(): string {
  const copy = join(SCRATCH, 'readme', 'main');
  mkdirSync(copy, { recursive: true });
  for (const e of readdirSync(REPO)) {
    if (e !== 'out' && e !== '.git') symlinkSync(join(REPO, e), join(copy, e));
  }
  if (existsSync(SHARED)) symlinkSync(SHARED, join(copy, '..', 'shared'));
  return copy;
}
const CHECKOUT = walkthroughCheckout();

function run(command: string, args: string[], input?: string) {
  const r = spawnSync(command, args, {
    cwd: CHECKOUT,
    input,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false', NO_COLOR: '1' },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

describe('README.md', () => {
  const blocks = readmeBlocks();

  it('walks "Your first benchmark" as written, and every other code block runs', () => {
    expect(blocks.filter((b) => b.section === 'Your first benchmark').length).toBeGreaterThanOrEqual(6);
    const pandas = pythonWith('import pandas');
    const outputs: { block: Block; stdout: string; stderr: string }[] = [];
    for (const block of blocks) {
      if (block.lang === 'sh') {
        const code = runnable(block.code);
        if (code === null) continue;
        // "Build from files you already have" reads the real archives beside the checkout (../shared).
        if (code.includes('../shared') && !existsSync(SHARED)) {
          console.warn(`skipped a README block of "${block.section}": it reads ${SHARED}, which is absent`);
          continue;
        }
        const r = run('bash', ['-euo', 'pipefail', '-c', code]);
        expect(r.code, `README block in "${block.section}":\n${block.code}\n--- stderr:\n${r.stderr}`).toBe(
          0,
        );
        outputs.push({ block, stdout: r.stdout, stderr: r.stderr });
      } else if (block.lang === 'python') {
        if (!requirePython(pandas, 'python3-pandas', 'the README pandas loaders')) continue;
        const r = run(pandas!, ['-'], block.code);
        expect(
          r.code,
          `README python block in "${block.section}":\n${block.code}\n--- stderr:\n${r.stderr}`,
        ).toBe(0);
      }
    }
    const out = (needle: string) => outputs.find((o) => o.block.code.includes(needle))!;
    // Each step does what the text says it does.
    expect(out('asof series --data out/default --search cpi').stdout).toMatch(
      /syn:fred:SYNCPI\s+Synthetic CPI, all items/,
    );
    const shows = outputs.filter((o) => o.block.code.includes('asof show syn:fred:SYNCPI'))[0].stdout;
    const [early, late] = shows.split(/^syn:fred:SYNCPI as of /m).slice(1);
    const values = (table: string) =>
      new Map([...table.matchAll(/^(\d{4}-\d{2})\s+\S+\s+(\S+)/gm)].map((m) => [m[1], m[2]]));
    const [before, after] = [values(early), values(late)];
    // The later view holds more periods, and revised values for periods both hold.
    expect(after.size).toBeGreaterThan(before.size);
    expect([...before].filter(([p, v]) => after.get(p) !== v).length).toBeGreaterThan(0);
    expect(out('asof split --manifest out/default/manifest.json').stdout).toMatch(/^M\s+T2\s+/m);
    const board = readFileSync(join(CHECKOUT, 'out/first-score/leaderboard.md'), 'utf8');
    // Markdown escapes the underscore in the leaderboard's tables.
    expect(board).toMatch(/cpi\\?_2\.4pct/);
    // The default universe is synthetic and survivorship-biased: its results say so, and so does the board.
    const results = JSON.parse(readFileSync(join(CHECKOUT, 'out/first-score/results.json'), 'utf8')) as {
      dataset_warnings: { code: string }[];
    };
    for (const code of ['SURVIVORSHIP', 'SYNTHETIC']) {
      expect(results.dataset_warnings.map((w) => w.code)).toContain(code);
      expect(board.split('## Coverage')[0]).toContain(`**${code}**`);
    }
    expect(out('head -n 40 out/first-score/leaderboard.md').stdout.length).toBeGreaterThan(0);
    // "Build from files you already have" (run when ../shared is there): the two vintages it quotes.
    const archive = outputs.find((o) => o.block.code.includes('fredmd:INDPRO'));
    if (archive !== undefined) {
      expect(archive.stdout).toMatch(/^2008-10\s+\S+\s+107\.285\s+2008-12-08T/m);
      expect(archive.stdout).toMatch(/^2008-10\s+\S+\s+97\.283\s+\S+\s+vintage\s+fredmd:2020-01/m);
    }
    expect(existsSync(join(CHECKOUT, 'out/first-report.html'))).toBe(true);
    // "Questions for model cutoffs": counts per family and window, then a board with the answers' model
    // and the baselines.
    expect(out('asof questions --manifest out/default/manifest.json').stdout).toMatch(
      /^\s+VAL\s+50 \(\d+\)\s+50 \(\d+\)/m,
    );
    const questionBoard = readFileSync(join(CHECKOUT, 'out/first-question-scores/leaderboard.md'), 'utf8');
    expect(questionBoard).toContain('| my-answers |');
    expect(questionBoard).toMatch(/last\\_value \(baseline\)/);
    // Every asof command told the reader what to run next.
    for (const o of outputs.filter((x) => x.block.code.includes('npx asof'))) {
      expect(o.stderr, o.block.code).toMatch(/^next: /m);
    }
  }, 3_600_000);
});
