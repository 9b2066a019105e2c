// Reading a lock record (src/node/lock/lock-record.ts) when the name changes between its calls:
// replaced after its lstat, grown or cut after its fstat, and the record's exact size cap and
// byte encoding. The seam is faked per call; the files are real.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LOCK_RECORD_BYTES } from '../../src/limits.js';
import { isOwner, readOwner } from '../../src/node/lock/lock-record.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { errno, hostFailure, tempDir, wrapSeam } from './support.js';

const RECORD = JSON.stringify({ pid: 7, hostname: 'h', acquiredAt: 'a', nonce: 'n' });
const OWNER = { pid: 7, hostname: 'h', acquiredAt: 'a', nonce: 'n' };

function lockWith(content: string | Uint8Array): string {
  const path = join(tempDir(), 'hooks.json.cursorhooks-lock');
  writeFileSync(path, content);
  return path;
}

/** A seam whose open of the lock fails with `code`, after a real lstat. */
const openFails = (code: string) =>
  wrapSeam((call) => {
    if (call === 'open') throw errno(code);
  });

describe('readOwner', () => {
  it('reads a record of exactly the cap and calls one a byte longer foreign (red: the cap is off by one)', async () => {
    const exact = lockWith(RECORD.padEnd(MAX_LOCK_RECORD_BYTES, ' '));
    expect(await readOwner(exact, nodeFs)).toEqual(OWNER);
    const over = lockWith(RECORD.padEnd(MAX_LOCK_RECORD_BYTES + 1, ' '));
    expect(await readOwner(over, nodeFs)).toBe('foreign');
  });

  it('calls a record that grew past the cap after its fstat foreign (red: a file growing under the read is trusted)', async () => {
    const path = lockWith(RECORD);
    const fs: FsSeam = {
      ...nodeFs,
      fstat: async (handle) => {
        const stats = await nodeFs.fstat(handle);
        appendFileSync(path, ' '.repeat(MAX_LOCK_RECORD_BYTES));
        return stats;
      },
    };
    expect(await readOwner(path, fs)).toBe('foreign');
  });

  it('calls a name no regular file, or empty, at its fstat foreign (red: what the open found is not checked again)', async () => {
    const path = lockWith(RECORD);
    for (const fake of [{ isFile: () => false }, { size: 0 }]) {
      const fs: FsSeam = {
        ...nodeFs,
        fstat: async (handle) => {
          const stats = await nodeFs.fstat(handle);
          return Object.assign(Object.create(Object.getPrototypeOf(stats)), stats, fake);
        },
      };
      expect(await readOwner(path, fs), JSON.stringify(Object.keys(fake))).toBe('foreign');
    }
  });

  it('calls a name gone between its lstat and its open gone (red: a lock released meanwhile is refused as foreign)', async () => {
    expect(await readOwner(lockWith(RECORD), openFails('ENOENT'))).toBe('gone');
  });

  it.each(['ELOOP', 'EMLINK', 'ENXIO', 'EISDIR'])(
    'calls a name its open refuses with %s (a link, socket or directory swapped in) foreign (red: it fails the run instead)',
    async (code) => {
      expect(await readOwner(lockWith(RECORD), openFails(code))).toBe('foreign');
    },
  );

  it('fails with the errno, naming the lock, when the open fails otherwise (red: EIO is taken for a foreign file)', async () => {
    const path = lockWith(RECORD);
    const err = await hostFailure(readOwner(path, openFails('EIO')));
    expect(err).toMatchObject({ reason: 'io-failure', code: 'EIO', role: 'lock', path });
  });

  it('calls a record that is not valid UTF-8 foreign (red: a broken byte is read as a replacement character)', async () => {
    const bytes = new TextEncoder().encode(RECORD.replace('"h"', '"h?"'));
    bytes[bytes.indexOf('?'.charCodeAt(0))] = 0xff;
    expect(await readOwner(lockWith(bytes), nodeFs)).toBe('foreign');
  });

  it('closes the record it opened (red: every read leaks a descriptor)', async () => {
    let closes = 0;
    const fs = wrapSeam((call) => {
      if (call === 'close') closes++;
    });
    expect(await readOwner(lockWith(RECORD), fs)).toEqual(OWNER);
    expect(closes).toBe(1);
  });
});

describe('isOwner', () => {
  it('is false for gone and foreign alone (red: a missing or foreign lock is judged as a holder)', () => {
    expect([isOwner('gone'), isOwner('foreign'), isOwner(OWNER)]).toEqual([false, false, true]);
  });
});
