import type { Manifest } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { isLiveManifest } from './publish-dataset.ts';

const manifest = (kind: string, sources: Record<string, unknown>, parent: string | null = null) =>
  ({ kind, parent_dataset_id: parent, config: { sources } }) as unknown as Manifest;

describe("isLiveManifest (croissant's isLiveDataset, docs/decisions/0066)", () => {
  it('is true for an updated universe or a live source, false for synthetic, raw-file and offline ones and splits', () => {
    expect(isLiveManifest(manifest('universe', { fred: { synthetic: { seed: 1 } }, embedded: {} }))).toBe(
      false,
    );
    expect(isLiveManifest(manifest('universe', { edgar: { raw_dir: 'sec', offline: false } }))).toBe(false);
    expect(isLiveManifest(manifest('universe', { fred: { series: ['GDP'], offline: true } }))).toBe(false);
    expect(isLiveManifest(manifest('universe', { fred: { series: ['GDP'], offline: false } }))).toBe(true);
    expect(isLiveManifest(manifest('universe', { fred: { synthetic: {} } }, 'a'.repeat(64)))).toBe(true);
    expect(isLiveManifest(manifest('split', { fred: { series: ['GDP'] } }, 'a'.repeat(64)))).toBe(false);
  });
});
