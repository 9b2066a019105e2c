// foreignWrite's decision on the file kept open from the compare: size and mtime show a write,
// and bytes equal to the compared ones are no foreign write. Real files, an explicit mtime.
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFs } from '../../src/node/write/fs-seam.js';
import { foreignWrite } from '../../src/node/write/in-place.js';
import { openSnapshot } from '../../src/node/write/read.js';
import { decode, tempDir, text } from './support.js';

async function held(contents: string) {
  const path = join(tempDir(), 'hooks.json');
  writeFileSync(path, contents);
  utimesSync(path, 1_000_000, 1_000_000);
  const { held } = await openSnapshot(path, nodeFs);
  if (held === undefined) throw new Error('not held');
  return { path, held };
}

describe('foreignWrite', () => {
  it('sees nothing when the held file is untouched (red: every swap reports a foreign write)', async () => {
    const { held: file } = await held('{"a":1}');
    try {
      expect(await foreignWrite(file, text('{"a":1}'), nodeFs)).toBeUndefined();
    } finally {
      await nodeFs.close(file.handle);
    }
  });

  it('trusts an unchanged size and mtime without reading (red: every swap reads the old file back, or the stats are not compared)', async () => {
    const { held: file } = await held('{"a":1}');
    try {
      // Compared against other bytes of the same size: only a read would notice them.
      expect(await foreignWrite(file, text('{"z":9}'), nodeFs)).toBeUndefined();
    } finally {
      await nodeFs.close(file.handle);
    }
  });

  it('returns the bytes of a same-size write with a new mtime (red: a size match alone hides the write)', async () => {
    const { path, held: file } = await held('{"a":1}');
    try {
      writeFileSync(path, '{"b":2}');
      utimesSync(path, 2_000_000, 2_000_000);
      expect(decode((await foreignWrite(file, text('{"a":1}'), nodeFs)) ?? text('none'))).toBe(
        '{"b":2}',
      );
    } finally {
      await nodeFs.close(file.handle);
    }
  });

  it('returns the bytes of a write of another size within the same mtime (red: an mtime match alone hides the write)', async () => {
    const { path, held: file } = await held('{"a":1}');
    try {
      writeFileSync(path, '{"a":1,"b":2}');
      utimesSync(path, 1_000_000, 1_000_000);
      expect(decode((await foreignWrite(file, text('{"a":1}'), nodeFs)) ?? text('none'))).toBe(
        '{"a":1,"b":2}',
      );
    } finally {
      await nodeFs.close(file.handle);
    }
  });

  it('sees nothing when the file was rewritten with the compared bytes (red: a touch counts as a foreign write)', async () => {
    const { path, held: file } = await held('{"a":1}');
    try {
      writeFileSync(path, '{"a":1}');
      utimesSync(path, 3_000_000, 3_000_000);
      expect(await foreignWrite(file, text('{"a":1}'), nodeFs)).toBeUndefined();
    } finally {
      await nodeFs.close(file.handle);
    }
  });
});
