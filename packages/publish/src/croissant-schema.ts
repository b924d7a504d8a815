import { z } from 'zod';

/**
 * The properties Croissant 1.1 requires (https://docs.mlcommons.org/croissant/docs/croissant-spec-1.1.html)
 * of a dataset, its resources and its record sets, as asof writes them (compacted JSON-LD with the
 * standard context): a published croissant.json must parse with this schema (tests/publish.test.ts).
 */
const Ref = z.object({ '@id': z.string().min(1) });

export const CroissantFileObject = z.object({
  '@type': z.literal('cr:FileObject'),
  '@id': z.string().min(1),
  name: z.string().min(1),
  contentUrl: z.string().min(1),
  encodingFormat: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const CroissantFileSet = z.object({
  '@type': z.literal('cr:FileSet'),
  '@id': z.string().min(1),
  name: z.string().min(1),
  containedIn: z.union([Ref, z.array(Ref)]),
  encodingFormat: z.string().min(1),
  includes: z.union([z.string().min(1), z.array(z.string().min(1))]),
});

export const CroissantField = z.object({
  '@type': z.literal('cr:Field'),
  '@id': z.string().min(1),
  name: z.string().min(1),
  dataType: z.union([z.string().min(1), z.array(z.string().min(1))]),
  source: z
    .object({
      fileObject: Ref.optional(),
      fileSet: Ref.optional(),
      extract: z.union([
        z.object({ column: z.string().min(1) }),
        z.object({ fileProperty: z.string().min(1) }),
      ]),
      transform: z.object({ regex: z.string().min(1) }).optional(),
    })
    .refine((s) => (s.fileObject === undefined) !== (s.fileSet === undefined), 'one fileObject or fileSet')
    .optional(),
  isArray: z.boolean().optional(),
  references: z.object({ field: Ref }).optional(),
});

export const CroissantRecordSet = z.object({
  '@type': z.literal('cr:RecordSet'),
  '@id': z.string().min(1),
  name: z.string().min(1),
  field: z.array(CroissantField).min(1),
  key: z.union([Ref, z.array(Ref)]).optional(),
  dataType: z.string().optional(),
  data: z.array(z.record(z.string(), z.unknown())).optional(),
});

export const Croissant = z.object({
  '@context': z
    .object({
      '@vocab': z.literal('https://schema.org/'),
      sc: z.literal('https://schema.org/'),
      cr: z.literal('http://mlcommons.org/croissant/'),
      dct: z.literal('http://purl.org/dc/terms/'),
      prov: z.literal('http://www.w3.org/ns/prov#'),
      rai: z.literal('http://mlcommons.org/croissant/RAI/'),
    })
    .passthrough(),
  '@type': z.literal('sc:Dataset'),
  'dct:conformsTo': z.literal('http://mlcommons.org/croissant/1.1'),
  name: z.string().min(1),
  description: z.string().min(1),
  license: z.union([z.string().min(1), z.object({ '@type': z.string(), name: z.string() }).passthrough()]),
  url: z.string().url(),
  creator: z.union([
    z.object({ '@type': z.string(), name: z.string().min(1) }),
    z.array(z.object({ '@type': z.string(), name: z.string().min(1) })),
  ]),
  datePublished: z.string().regex(/^\d{4}-\d{2}-\d{2}/),
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  isLiveDataset: z.boolean(),
  'prov:wasDerivedFrom': z.object({ '@id': z.string().min(1) }).passthrough(),
  distribution: z.array(z.union([CroissantFileObject, CroissantFileSet])).min(1),
  recordSet: z.array(CroissantRecordSet).min(1),
});
export type Croissant = z.infer<typeof Croissant>;
