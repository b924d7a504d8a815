import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stampText } from '@asof/output';
import { describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache.ts';

describe('ResponseCache temp files', () => {
  it('writes through <cache>/tmp/ and removes the temp files a killed process left there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'asof-cache-'));
    mkdirSync(join(dir, 'tmp'));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(dir, 'tmp', `${dead}-1-abcdef012345`), 'half a body');
    const live = `${stampText()}-000000000000`;
    writeFileSync(join(dir, 'tmp', live), 'another write of this process');
    const cache = new ResponseCache(dir);
    await cache.put(
      {
        key: 'GET https://example.test/a',
        status: 200,
        content_type: 'text/plain',
        url: 'https://example.test/a',
      },
      Buffer.from('body'),
    );
    expect(readdirSync(join(dir, 'tmp'))).toEqual([live]);
    expect((await cache.get('GET https://example.test/a'))?.body.toString()).toBe('body');
  });
});
