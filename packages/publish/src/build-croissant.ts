import type { PublishedConfig, PublishedDataset } from './published-dataset.ts';

/** Croissant's standard JSON-LD context (the spec's, with prov: for provenance, as 1.1 uses it). */
export const CROISSANT_CONTEXT = {
  '@language': 'en',
  '@vocab': 'https://schema.org/',
  arrayShape: 'cr:arrayShape',
  citeAs: 'cr:citeAs',
  column: 'cr:column',
  conformsTo: 'dct:conformsTo',
  containedIn: 'cr:containedIn',
  cr: 'http://mlcommons.org/croissant/',
  data: { '@id': 'cr:data', '@type': '@json' },
  dataBiases: 'cr:dataBiases',
  dataCollection: 'cr:dataCollection',
  dataType: { '@id': 'cr:dataType', '@type': '@vocab' },
  dct: 'http://purl.org/dc/terms/',
  equivalentProperty: 'cr:equivalentProperty',
  examples: { '@id': 'cr:examples', '@type': '@json' },
  excludes: 'cr:excludes',
  extract: 'cr:extract',
  field: 'cr:field',
  fileObject: 'cr:fileObject',
  fileProperty: 'cr:fileProperty',
  fileSet: 'cr:fileSet',
  format: 'cr:format',
  includes: 'cr:includes',
  isArray: 'cr:isArray',
  isLiveDataset: 'cr:isLiveDataset',
  jsonPath: 'cr:jsonPath',
  key: 'cr:key',
  md5: 'cr:md5',
  parentField: 'cr:parentField',
  path: 'cr:path',
  personalSensitiveInformation: 'cr:personalSensitiveInformation',
  prov: 'http://www.w3.org/ns/prov#',
  rai: 'http://mlcommons.org/croissant/RAI/',
  recordSet: 'cr:recordSet',
  references: 'cr:references',
  regex: 'cr:regex',
  repeated: 'cr:repeated',
  replace: 'cr:replace',
  samplingRate: 'cr:samplingRate',
  sc: 'https://schema.org/',
  separator: 'cr:separator',
  source: 'cr:source',
  subField: 'cr:subField',
  transform: 'cr:transform',
} as const;

const ENCODING = { parquet: 'application/x-parquet', csv: 'text/csv' } as const;

/** A DuckDB column type as a Croissant data type (a list is an array field of its element's type: `isArray`). */
export function croissantDataType(duckType: string): { dataType: string; isArray: boolean } {
  const isArray = duckType.endsWith('[]');
  const base = isArray ? duckType.slice(0, -2) : duckType;
  const dataType = base.startsWith('TIMESTAMP')
    ? 'sc:DateTime'
    : base === 'DATE'
      ? 'sc:Date'
      : base === 'DOUBLE' || base === 'FLOAT'
        ? 'sc:Float'
        : /^(BIGINT|INTEGER|SMALLINT|TINYINT|HUGEINT|UBIGINT|UINTEGER)$/.test(base)
          ? 'sc:Integer'
          : base === 'BOOLEAN'
            ? 'sc:Boolean'
            : 'sc:Text';
  return { dataType, isArray };
}

/**
 * A config's record set: one typed field per column, read from the config's Parquet file, and `split`, the
 * split a row belongs to, read from the file's path and referencing the cr:Split record set.
 */
function recordSetOf(c: PublishedConfig): Record<string, unknown> {
  const parquet = c.files.find((f) => f.format === 'parquet')!;
  const split = {
    '@type': 'cr:Field',
    '@id': `${c.config}/split`,
    name: 'split',
    description: 'the split the row belongs to (from its file name)',
    dataType: 'sc:Text',
    source: {
      fileObject: { '@id': parquet.path },
      extract: { fileProperty: 'fullpath' },
      transform: { regex: `^(?:.*/)?data/${c.config}/(${c.split})-\\d+\\.parquet$` },
    },
    references: { field: { '@id': 'splits/name' } },
  };
  return {
    '@type': 'cr:RecordSet',
    '@id': c.config,
    name: c.config,
    description: c.description,
    field: [
      ...c.columns.map((k) => {
        const { dataType, isArray } = croissantDataType(k.type);
        return {
          '@type': 'cr:Field',
          '@id': `${c.config}/${k.name}`,
          name: k.name,
          dataType,
          ...(isArray ? { isArray: true } : {}),
          source: { fileObject: { '@id': parquet.path }, extract: { column: k.name } },
        };
      }),
      split,
    ],
  };
}

/** The cr:Split record set: the splits the configs hold (asof publishes one, `train`, per config). */
function splitRecordSet(d: PublishedDataset): Record<string, unknown> {
  const splits = [...new Set(d.configs.map((c) => c.split))];
  return {
    '@type': 'cr:RecordSet',
    '@id': 'splits',
    name: 'splits',
    description:
      d.kind === 'split'
        ? `train: what was public by the training cutoff ${d.split?.train_cutoff}`
        : 'train: the whole universe (asof split makes evaluation splits from it)',
    dataType: 'cr:Split',
    key: { '@id': 'splits/name' },
    field: [
      { '@type': 'cr:Field', '@id': 'splits/name', name: 'name', dataType: 'sc:Text' },
      { '@type': 'cr:Field', '@id': 'splits/url', name: 'url', dataType: 'sc:URL' },
    ],
    data: splits.map((s) => ({ 'splits/name': s, 'splits/url': 'cr:TrainingSplit' })),
  };
}

/**
 * croissant.json (Croissant 1.1): the dataset's metadata, every data file as a cr:FileObject with its
 * sha256, a record set per config with typed fields read from its Parquet file, and the splits.
 */
export function buildCroissant(d: PublishedDataset, description: string): Record<string, unknown> {
  return {
    '@context': CROISSANT_CONTEXT,
    '@type': 'sc:Dataset',
    'dct:conformsTo': 'http://mlcommons.org/croissant/1.1',
    name: d.name,
    description,
    license: {
      '@type': 'sc:CreativeWork',
      name: `other: ${d.license.name}`,
      description: d.license.details,
    },
    url: d.url,
    creator: { '@type': 'sc:Organization', name: d.creator },
    datePublished: d.datePublished,
    version: d.version,
    isLiveDataset: d.live,
    keywords: ['time-series-forecasting', 'point-in-time', 'finance', 'asof'],
    'prov:wasDerivedFrom': {
      '@id': `urn:asof:dataset:${d.parentDatasetId}`,
      name: `asof ${d.kind} ${d.parentDatasetId}`,
    },
    distribution: d.configs.flatMap((c) =>
      c.files.map((f) => ({
        '@type': 'cr:FileObject',
        '@id': f.path,
        name: f.path,
        contentUrl: f.path,
        encodingFormat: ENCODING[f.format],
        sha256: f.sha256,
      })),
    ),
    recordSet: [...d.configs.map(recordSetOf), splitRecordSet(d)],
  };
}
