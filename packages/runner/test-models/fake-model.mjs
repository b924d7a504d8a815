// A model for the runner's tests: answers the protocol correctly, or fails in the way its first argument
// names, on the second predict batch (so a failure always has an origin and series to name).
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'ok';
// mode 'record': the second argument is a file that gets every line the runner sends.
const kind = mode === 'record' ? 'point' : (process.argv[3] ?? 'point');
const record = mode === 'record' ? process.argv[3] : null;
const LEVELS = [0.05, 0.5, 0.95];
const out = (line) => process.stdout.write(`${line}\n`);
const send = (message) => out(JSON.stringify(message));

function path(task) {
  const last = task.inputs.values.at(-1) ?? 1;
  const point = Array.from({ length: task.horizon }, (_, k) => last + k * 0.001);
  if (kind === 'quantiles')
    return {
      series_id: task.series_id,
      point,
      quantiles: LEVELS.map((q) => point.map((v) => v + (q - 0.5))),
    };
  if (kind === 'samples')
    return {
      series_id: task.series_id,
      point,
      samples: [0, 1, 2].map((m) => point.map((v) => v + m * 0.01)),
    };
  return { series_id: task.series_id, point };
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (record) appendFileSync(record, `${line}\n`);
  const m = JSON.parse(line);
  if (m.type === 'hello') {
    if (mode === 'stdout-noise') out('loading weights…');
    if (mode === 'bad-hello') send({ type: 'hello', protocol: 2 });
    else
      send({
        type: 'hello',
        protocol: 1,
        name: 'fake',
        fit: mode !== 'no-fit',
        ...(kind === 'quantiles' ? { quantiles: LEVELS } : kind === 'samples' ? { samples: 3 } : {}),
      });
  } else if (m.type === 'fit_end') {
    send({ type: 'ready' });
  } else if (m.type === 'predict') {
    const paths = m.tasks.map(path);
    const fail = m.batch === 2;
    if (fail && mode === 'error')
      send({ type: 'error', message: 'out of memory', series_id: m.tasks[0].series_id });
    else if (fail && mode === 'malformed') out('{"type":"forecast","batch":2,');
    else if (fail && mode === 'timeout') await new Promise((r) => setTimeout(r, 600_000));
    else if (fail && mode === 'crash') {
      process.stderr.write('fake: segmentation fault (pretend)\n');
      process.exit(3);
    } else if (fail && mode === 'nan') {
      const text = JSON.stringify({ type: 'forecast', batch: m.batch, paths });
      out(text.replace(/("point":\[[^,\]]+,[^,\]]+,)[^,\]]+/, '$1NaN'));
    } else {
      if (fail && mode === 'unasked') paths.push({ series_id: 'x:not-asked', point: [1] });
      if (fail && mode === 'missing-step') paths[0].point.pop();
      if (fail && mode === 'extra-step') paths[0].point.push(1);
      if (fail && mode === 'missing-pair') paths.pop();
      if (fail && mode === 'duplicate') paths.push(paths[0]);
      if (fail && mode === 'null') paths[0].point[0] = null;
      if (fail && mode === 'crossing') paths[0].quantiles.reverse();
      if (mode === 'skip' && m.batch % 2 === 0) paths[0] = { series_id: paths[0].series_id, skip: true };
      send({ type: 'forecast', batch: fail && mode === 'wrong-batch' ? 3 : m.batch, paths });
      if (fail && mode === 'extra-line') send({ type: 'ready' });
    }
  } else if (m.type === 'bye') {
    if (mode === 'exit-1-after-bye') process.exit(1);
    break;
  }
}
