import { describe, expect, it } from 'vitest';
import { checkMemoryShare } from './load-pipeline.ts';
import { PipelineConfig } from './pipeline-config.ts';

const withLimit = (memory_limit: string) =>
  PipelineConfig.parse({ name: 'x', duckdb: { memory_limit }, sources: { embedded: { real: {} } } });

describe('checkMemoryShare', () => {
  it("refuses a share of RAM that is below asof's minimum on this machine, naming the field and the size", () => {
    const fourGb = 4e9;
    // 1% of 4 GB is 40MB: the schema cannot know, the machine does.
    expect(() => checkMemoryShare(withLimit('1%'), 'p.json', fourGb)).toThrow(
      "p.json: duckdb.memory_limit: 1% of this machine's 4000MB is 40MB, below asof's minimum of 64MB; write a size from 64MB to 1000TB like '8GB', '512MB', '2GiB', or a share of RAM like '60%'",
    );
    expect(() => checkMemoryShare(withLimit('1%'), 'p.json', fourGb)).toThrow(
      expect.objectContaining({ exitCode: 2, code: 'PIPELINE_INVALID' }),
    );
    expect(() => checkMemoryShare(withLimit('2%'), 'p.json', fourGb)).not.toThrow();
    // A size is the schema's to check; a machine whose memory is unknown is not judged.
    expect(() => checkMemoryShare(withLimit('64MB'), 'p.json', fourGb)).not.toThrow();
    expect(() => checkMemoryShare(withLimit('1%'), 'p.json', 0)).not.toThrow();
  });
});
