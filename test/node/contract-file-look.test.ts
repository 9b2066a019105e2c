// What a recorded contract file is now: found only while its bytes have the recorded digest.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractFileDigest, lookAtContractFile } from '../../src/node/status/contract-file.js';
import { failing, tempDir } from './support.js';

const BYTES = new TextEncoder().encode('{"version":1}\n');
const recorded = (path: string) => ({ path, id: 'x', sha256: contractFileDigest(BYTES) });

describe('lookAtContractFile', () => {
  it('is found, with the bytes, while they are the recorded ones (red: an intact record is not used)', async () => {
    const path = join(tempDir(), 'r.json');
    writeFileSync(path, BYTES);
    expect(await lookAtContractFile(recorded(path))).toEqual({ state: 'found', bytes: BYTES });
  });

  it('is changed, without bytes, when one byte differs (red: a changed grammar is trusted)', async () => {
    const path = join(tempDir(), 'r.json');
    writeFileSync(path, '{"version":1} \n');
    expect(await lookAtContractFile(recorded(path))).toEqual({
      state: 'changed',
      bytes: undefined,
    });
  });

  it('is missing when the name or its directory is gone (red: a moved record reads as changed or throws)', async () => {
    const dir = tempDir();
    expect((await lookAtContractFile(recorded(join(dir, 'none.json')))).state).toBe('missing');
    writeFileSync(join(dir, 'file'), '');
    expect((await lookAtContractFile(recorded(join(dir, 'file', 'r.json')))).state).toBe('missing');
  });

  it('is changed when a directory stands in its place (red: a non-file is read or reported missing)', async () => {
    const path = join(tempDir(), 'r.json');
    mkdirSync(path);
    expect((await lookAtContractFile(recorded(path))).state).toBe('changed');
  });

  it('is unreadable when reading it is denied (red: an unreadable record is called missing or changed)', async () => {
    const path = join(tempDir(), 'r.json');
    writeFileSync(path, BYTES);
    const denied = failing('open', 'EACCES', (p) => p === path);
    expect((await lookAtContractFile(recorded(path), denied)).state).toBe('unreadable');
  });
});
