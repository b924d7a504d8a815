// The trivial model of the runner bench: the last input value for every step (no fit work). Plain
// JavaScript so that the figures measure the runner, not a model. `no-fit` declines the training snapshot.
import { createInterface } from 'node:readline';

const fit = process.argv[2] !== 'no-fit';
const send = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  // fit lines are read and dropped unparsed: the runner's cost of sending them is what is measured.
  if (line.startsWith('{"type":"fit",')) continue;
  const m = JSON.parse(line);
  if (m.type === 'hello') send({ type: 'hello', protocol: 1, name: 'trivial', fit });
  else if (m.type === 'fit_end') send({ type: 'ready' });
  else if (m.type === 'predict') {
    const paths = m.tasks.map((t) => ({
      series_id: t.series_id,
      point: new Array(t.horizon).fill(t.inputs.values.at(-1) ?? 0),
    }));
    send({ type: 'forecast', batch: m.batch, paths });
  } else if (m.type === 'bye') break;
}
