import { z } from 'zod';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lower-case hex sha256');

export const ManifestOutput = z
  .object({
    path: z.string().describe('relative to the manifest, with / separators'),
    table: z.string(),
    sha256: Sha256,
    bytes: z.number().int().nonnegative(),
    rows: z.number().int().nonnegative(),
    schema_fingerprint: Sha256.describe('sha256 of the canonical column list (name:type)'),
    min_timestamp: z.string().nullable(),
    max_timestamp: z.string().nullable(),
    min_available_at: z.string().nullable(),
    max_available_at: z.string().nullable(),
  })
  .strict();
export type ManifestOutput = z.infer<typeof ManifestOutput>;

export const ManifestInput = z
  .object({ source: z.string(), key: z.string(), sha256: Sha256, bytes: z.number().int().nonnegative() })
  .strict();

export const ManifestWarning = z
  .object({ code: z.string(), message: z.string(), count: z.number().int().optional() })
  .strict();

export const Manifest = z
  .object({
    manifest_version: z.literal(1),
    dataset_id: Sha256.describe('sha256 of the canonical manifest without dataset_id and created_by.git_*'),
    name: z.string(),
    kind: z
      .string()
      .describe(
        "'universe' for a build; derived datasets name their parent: 'split', 'csv-export', 'fintsb-export', 'nixtla-export', 'qlib-export', 'publish' (a Hugging Face dataset folder), 'questions' (forecast questions for a model cutoff), 'question-scores' (their scores), and 'scores' (a score folder: results.json and leaderboard.md)",
      ),
    parent_dataset_id: Sha256.nullable(),
    created_by: z
      .object({
        asof_version: z.string(),
        duckdb_version: z.string(),
        git_commit: z.string().nullable(),
        git_dirty: z.boolean().nullable(),
        pipeline_file: z
          .string()
          .optional()
          .describe(
            "the absolute path of a universe's pipeline file ('asof update' without a pipeline resolves the relative paths against its folder); not part of dataset_id",
          ),
      })
      .strict(),
    config: z.record(z.string(), z.unknown()).describe('the resolved pipeline config'),
    config_sha256: Sha256,
    registry: z.array(z.object({ name: z.string(), sha256: Sha256, bytes: z.number().int() }).strict()),
    inputs: z.array(ManifestInput),
    outputs: z.array(ManifestOutput),
    warnings: z.array(ManifestWarning),
    summary: z.record(z.string(), z.unknown()),
  })
  .strict();
export type Manifest = z.infer<typeof Manifest>;
