import { stringify } from 'yaml';
import type { PublishedConfig, PublishedDataset } from './published-dataset.ts';

/** A DuckDB column type as a Hugging Face `datasets` feature (dtype, or a sequence of one). */
export function featureOf(name: string, duckType: string): Record<string, unknown> {
  const list = duckType.endsWith('[]');
  const base = list ? duckType.slice(0, -2) : duckType;
  const dtype =
    base === 'TIMESTAMP WITH TIME ZONE'
      ? 'timestamp[us, tz=UTC]'
      : base === 'DOUBLE'
        ? 'float64'
        : base === 'FLOAT'
          ? 'float32'
          : base === 'BIGINT'
            ? 'int64'
            : base === 'INTEGER'
              ? 'int32'
              : base === 'BOOLEAN'
                ? 'bool'
                : base === 'DATE'
                  ? 'date32'
                  : 'string';
  return list ? { name, sequence: dtype } : { name, dtype };
}

/** The card's YAML front matter: configs and their files, licence, task, tags, name, dataset_info. */
export function cardFrontMatter(d: PublishedDataset): Record<string, unknown> {
  const parquet = (c: PublishedConfig) => c.files.find((f) => f.format === 'parquet')!;
  return {
    configs: d.configs.map((c, i) => ({
      config_name: c.config,
      ...(i === 0 ? { default: true } : {}),
      data_files: [{ split: c.split, path: parquet(c).path }],
    })),
    license: 'other',
    license_name: d.license.name,
    license_details: d.license.details,
    task_categories: ['time-series-forecasting'],
    tags: [
      'finance',
      'economics',
      'point-in-time',
      'vintages',
      'asof',
      ...(d.kind === 'split' ? ['fev'] : []),
    ],
    pretty_name: `${d.name} (asof ${d.kind})`,
    dataset_info: d.configs.map((c) => ({
      config_name: c.config,
      features: c.columns.map((k) => featureOf(k.name, k.type)),
      splits: [{ name: c.split, num_bytes: parquet(c).bytes, num_examples: c.rows }],
    })),
  };
}

/** One paragraph of prose: the card's lines are wrapped by Markdown, not here. */
const para = (...lines: string[]) => `${lines.filter((l) => l !== '').join(' ')}\n`;

/** The card's configs table. */
function configsTable(d: PublishedDataset): string {
  const rows = d.configs.map(
    (c) =>
      `| \`${c.config}\` | ${c.split} | ${c.rows.toLocaleString('en-US')} | ${c.files.map((f) => `\`${f.path}\``).join(', ')} | ${c.description} |`,
  );
  return ['| config | split | rows | files | what |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** What `available_at` means, inline (a reader of the Hub cannot open the repository's glossary). */
function availableAtText(): string {
  return [
    '## How `available_at` works',
    '',
    para(
      'Every observation has two clocks. `timestamp` is the instant the value is about (the end of its period:',
      'a month, a quarter, a trading day), and `available_at` is the first instant the value was public.',
      'A value revised later is a new row with the same `series_id` and `timestamp` and a later `available_at`',
      '(a *vintage*); a value withdrawn by a later vintage is a row whose `value` is empty.',
      '`available_at_basis` says how `available_at` was obtained: `vintage` (an archived release such as',
      "ALFRED's), `filing` (an SEC filing's acceptance time), `bar_close` (a price bar's close) or `rule`",
      '(a documented release rule, for sources that carry no release dates).',
    ),
    para(
      'The *as-of view* at an instant t takes, for each period, the row with the greatest `available_at` ≤ t:',
      'what a forecaster could have known at t. Train and evaluate on as-of views only; reading the latest value',
      'of each period leaks revisions from the future into the past. All instants are UTC.',
    ),
  ].join('\n');
}

/**
 * A warning's message for a reader of the Hub, who cannot open asof's repository: a path to one of its
 * documents becomes the document's name in words.
 */
export function withoutRepoPaths(message: string): string {
  return message
    .replace(/docs\/decisions\/(\d{4})[\w.-]*/g, "asof's decision record $1")
    .replace(/docs\/glossary\.md/g, "asof's glossary");
}

/** The manifest's warnings, as the card states them. */
function warningsText(d: PublishedDataset): string {
  if (d.warnings.length === 0) return '## Warnings\n\nThe dataset carries no warnings.\n';
  return [
    '## Warnings',
    '',
    'The build recorded these warnings; read them before using the data:',
    '',
    ...d.warnings.map(
      (w) => `- **${w.code}**: ${withoutRepoPaths(w.message)}${w.count === undefined ? '' : ` (${w.count})`}`,
    ),
    '',
  ].join('\n');
}

/** The split's cutoffs and its fev tasks, for a split. */
function splitText(d: PublishedDataset): string {
  if (!d.split) return '';
  const s = d.split;
  return [
    '## The split',
    '',
    para(
      `Training data are what was public by the training cutoff ${s.train_cutoff}${s.model_cutoff ? '' : '.'}`,
      s.model_cutoff ? `(a model with knowledge cutoff ${s.model_cutoff}, run on ${s.run_date}).` : '',
      'The `snapshot` config holds one row per series (`id`, `timestamp` list, `target` list) with each',
      "period's value as known at that cutoff, the layout of the fev benchmark, and nothing published after it:",
      "the split's evaluation targets are not in this dataset (they stay with asof's scorer, a hidden test set).",
      '`tasks.yaml` describes one fev task per frequency whose windows are the last `windows` × `horizon` steps',
      "of that history (fev's negative `initial_cutoff`); the split's own origins start at the first origin below.",
    ),
    '| frequency | series | horizon | windows | first origin |',
    '|---|---|---|---|---|',
    ...s.windows.map(
      (w) => `| ${w.frequency} | ${w.series} | ${w.horizon} | ${w.windows} | ${w.initial_cutoff} |`,
    ),
    '',
  ].join('\n');
}

/** README.md of a published folder: YAML front matter, then what the data are and how to use and cite them. */
export function renderDatasetCard(d: PublishedDataset, description: string): string {
  const front = stringify(cardFrontMatter(d), { lineWidth: 0, aliasDuplicateObjects: false });
  const body = [
    `# ${d.name}`,
    '',
    description,
    '',
    configsTable(d),
    '',
    'With `--csv`, each Parquet file has a CSV twin at the same path (`.csv`): a header row, instants as',
    'ISO-8601 UTC text with microseconds (2020-01-31T23:59:59.999999Z), lists as JSON arrays, an empty field',
    'for a missing value.',
    '',
    availableAtText(),
    splitText(d),
    warningsText(d),
    '## Sources and terms',
    '',
    ...d.terms.map(
      (t) => `- \`${t.source}\`${t.synthetic ? ' (synthetic)' : ''}, ${t.series} series: ${t.terms}.`,
    ),
    '',
    para(
      `The licence field is \`other\` (${d.license.name}): the data keep their sources' terms above;`,
      'redistribute them only as those terms allow.',
    ),
    '## Versions and provenance',
    '',
    para(
      `Version ${d.version}. It is derived from the asof ${d.kind} whose dataset_id is \`${d.parentDatasetId}\``,
      "(asof's content identifier of it); `manifest.json` lists every file of this folder with its sha256, and",
      '`croissant.json` describes the same files in Croissant 1.1. A republish of the same data raises the',
      'patch number, added data the minor number, and changed history (a value, a vintage or a series gone)',
      'the major number.',
      d.live ? 'The data come from live sources and are updated: pin the version you used.' : '',
    ),
    '## Citation',
    '',
    para(
      'Cite the dataset by its name, version and the dataset_id above, and the sources above by their own citations:',
    ),
    '```bibtex',
    `@misc{${d.name.replace(/[^A-Za-z0-9]+/g, '_')}_${d.version.replace(/\./g, '_')},`,
    `  title = {${d.name}: a point-in-time ${d.kind} built with asof},`,
    `  version = {${d.version}},`,
    `  year = {${d.datePublished.slice(0, 4)}},`,
    `  url = {${d.url}},`,
    `  note = {asof dataset_id ${d.parentDatasetId}}`,
    '}',
    '```',
    '',
  ].join('\n');
  return `---\n${front}---\n\n${body}`;
}
