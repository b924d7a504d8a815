import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Duck, loadQuery, quoteIdent, quoteLiteral } from '@asof/duck';
import type { manifestOutput } from '@asof/manifest';

/** The SQL models of this package (`sql/`), read through @asof/duck's loader. */
export const PUBLISH_SQL = new URL('../sql/', import.meta.url);

/** One Hugging Face config of a published folder: its name, its one split, and the model that makes it. */
export interface PublishConfig {
  config: string;
  split: string;
  /** The model in sql/ (`published_<config>`). */
  model: string;
  /** One line for the card and the Croissant record set. */
  description: string;
}

/** A column of a written file, as DuckDB describes it. */
export interface PublishedColumn {
  name: string;
  type: string;
}

const INSTANT = 'TIMESTAMP WITH TIME ZONE';

/** What the manifest's entry of a written file is made from (@asof/manifest manifestOutput). */
export type WrittenFile = Parameters<typeof manifestOutput>[1];

/** The shard path of a config's split: data/<config>/<split>-00000.<ext> (one shard: the datasets are small). */
export function shardPath(c: PublishConfig, ext: 'parquet' | 'csv'): string {
  return `data/${c.config}/${c.split}-00000.${ext}`;
}

/**
 * Writes one config's Parquet shard (its model, ordered on its grain) and, with `csv`, the same rows as CSV
 * beside it: instants as ISO-8601 UTC text with microseconds (as `asof export csv` writes them), lists as
 * JSON arrays, null as an empty field. Returns the files written, for the manifest.
 */
export async function writePublishedConfig(
  duck: Duck,
  dir: string,
  c: PublishConfig,
  csv: boolean,
): Promise<{ files: WrittenFile[]; columns: PublishedColumn[] }> {
  const parquet = shardPath(c, 'parquet');
  const target = join(dir, ...parquet.split('/'));
  mkdirSync(dirname(target), { recursive: true });
  await duck.writeParquet(loadQuery(PUBLISH_SQL, c.model), target);
  const src = `read_parquet(${quoteLiteral(target)}, hive_partitioning = false, file_row_number = true)`;
  const columns = (
    await duck.all<{ column_name: string; column_type: string }>(
      `DESCRIBE SELECT * EXCLUDE (file_row_number) FROM ${src}`,
    )
  ).map((r) => ({ name: r.column_name, type: r.column_type }));
  const ranges = await fileRanges(duck, src, columns);
  const files: WrittenFile[] = [
    { path: parquet, table: c.config, columns: columns.map((k) => `${k.name}:${k.type}`), ...ranges },
  ];
  if (csv) {
    const path = shardPath(c, 'csv');
    const select = columns.map((k) => `${csvValue(k)} AS ${quoteIdent(k.name)}`);
    await duck.run(
      `COPY (SELECT ${select.join(', ')} FROM ${src} ORDER BY file_row_number)
       TO ${quoteLiteral(join(dir, ...path.split('/')))} (FORMAT csv, HEADER true)`,
    );
    files.push({
      path,
      table: c.config,
      columns: columns.map(
        (k) => `${k.name}:${k.type.startsWith(INSTANT) || k.type.endsWith('[]') ? 'VARCHAR' : k.type}`,
      ),
      ...ranges,
    });
  }
  return { files, columns };
}

/** A column as CSV text: instants as asof's ISO text, lists as JSON arrays (of ISO text for instants). */
function csvValue(k: PublishedColumn): string {
  const id = quoteIdent(k.name);
  const iso = (x: string) => `iso_instant(make_timestamp(epoch_us(${x})))`;
  if (k.type === INSTANT) return iso(id);
  if (k.type === `${INSTANT}[]`) return `CAST(to_json(list_transform(${id}, t -> ${iso('t')})) AS VARCHAR)`;
  if (k.type.endsWith('[]')) return `CAST(to_json(${id}) AS VARCHAR)`;
  return id;
}

/** Rows and the timestamp / available_at ranges of a written file, as a manifest output states them. */
async function fileRanges(
  duck: Duck,
  src: string,
  columns: readonly PublishedColumn[],
): Promise<
  Pick<WrittenFile, 'rows' | 'min_timestamp' | 'max_timestamp' | 'min_available_at' | 'max_available_at'>
> {
  const has = (name: string) => columns.some((k) => k.name === name && k.type === INSTANT);
  const range = (name: string) =>
    has(name)
      ? `iso_instant(make_timestamp(epoch_us(min(${quoteIdent(name)})))) AS min_${name}, iso_instant(make_timestamp(epoch_us(max(${quoteIdent(name)})))) AS max_${name}`
      : `NULL::VARCHAR AS min_${name}, NULL::VARCHAR AS max_${name}`;
  const r = await duck.one<{
    rows: bigint;
    min_timestamp: string | null;
    max_timestamp: string | null;
    min_available_at: string | null;
    max_available_at: string | null;
  }>(`SELECT count(*) AS rows, ${range('timestamp')}, ${range('available_at')} FROM ${src}`);
  return {
    rows: Number(r.rows),
    min_timestamp: r.min_timestamp,
    max_timestamp: r.max_timestamp,
    min_available_at: r.min_available_at,
    max_available_at: r.max_available_at,
  };
}
