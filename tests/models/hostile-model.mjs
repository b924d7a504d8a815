// A model that misbehaves in one chosen way, for tests/reliability.test.ts (audit reliability-2026-12,
// section 8). Plain Node with no imports from the repo, so it starts fast and runs inside a sandbox.
//   env               writes the names of the ASOF_* variables it sees to stderr, then answers (the last value)
//   echo KEYFILE      writes the key in KEYFILE upper-cased and URL-encoded to stderr, then exits 3
//   orphan            at the first predict, starts `sleep 1234` (same group, holding stdout), exits 4
//   longline          at hello, writes an endless stdout line without a newline
//   peek PATH…        tries to read each PATH, writes "peek PATH: ok|ERRNO" and its network interfaces to
//                     stderr, then answers
//   value X           answers X for every step of every pair (tests/reliability-results.test.ts)
//   skip              skips every pair
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { createInterface } from 'node:readline';

const [mode, ...args] = process.argv.slice(2);
const send = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);

if (mode === 'echo') {
  const key = readFileSync(args[0], 'utf8').trim();
  process.stderr.write(`UPPER ${key.toUpperCase()}\n`);
  process.stderr.write(
    `ENCODED api_key%3D${encodeURIComponent(key.toUpperCase())}&x=${encodeURIComponent(key)}\n`,
  );
  process.stderr.write(`LAST ${key.toUpperCase()}\n`);
  process.exit(3);
}

if (mode === 'env') {
  const names = Object.keys(process.env)
    .filter((n) => n.startsWith('ASOF_'))
    .sort();
  process.stderr.write(`ASOF-VARS [${names.join(',')}]\n`);
}

if (mode === 'peek') {
  for (const p of args) {
    let what = 'ok';
    try {
      readFileSync(p);
    } catch (err) {
      what = err.code ?? String(err);
    }
    process.stderr.write(`peek ${p}: ${what}\n`);
  }
  process.stderr.write(`interfaces [${Object.keys(networkInterfaces()).sort().join(',')}]\n`);
}

for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.type === 'hello') {
    if (mode === 'longline') {
      const block = 'x'.repeat(1 << 20);
      // Ends only when asof stops it (EPIPE, or killed).
      process.stdout.on('error', () => process.exit(0));
      const more = () => {
        while (process.stdout.write(block));
        process.stdout.once('drain', more);
      };
      more();
      continue;
    }
    send({ type: 'hello', protocol: 1, name: 'hostile', fit: false });
  } else if (m.type === 'predict') {
    if (mode === 'orphan') {
      spawn('sleep', ['1234'], { stdio: ['ignore', 'inherit', 'inherit'] });
      setTimeout(() => process.exit(4), 100);
      continue;
    }
    send({
      type: 'forecast',
      batch: m.batch,
      paths: m.tasks.map((t) =>
        mode === 'skip'
          ? { series_id: t.series_id, skip: true }
          : {
              series_id: t.series_id,
              point: Array.from({ length: t.horizon }, () =>
                mode === 'value' ? Number(args[0]) : (t.inputs.values.at(-1) ?? 1),
              ),
            },
      ),
    });
  } else if (m.type === 'bye') break;
}
