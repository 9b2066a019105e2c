// The registry's edges the interrupt suite does not pin: isTracked, a lock still holding our
// nonce, the count returned, and entries forgotten once handled.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isTracked,
  removeTrackedSideFiles,
  trackLockFile,
  trackSideFile,
} from '../../src/node/side-files/side-file-registry.js';
import { tempDir } from './support.js';

describe('the side-file registry', () => {
  it('knows a tracked path until it is untracked (red: isTracked answers for any path)', () => {
    const dir = tempDir();
    const path = join(dir, 'a.tmp');
    expect(isTracked(path)).toBe(false);
    const untrack = trackSideFile(path);
    expect(isTracked(path)).toBe(true);
    expect(isTracked(join(dir, 'b.tmp'))).toBe(false);
    untrack();
    expect(isTracked(path)).toBe(false);
    const untrackLock = trackLockFile(path, 'n');
    expect(isTracked(path)).toBe(true);
    untrackLock();
    expect(isTracked(path)).toBe(false);
  });

  it('removes a lock still holding our nonce, counts it, and forgets everything handled (red: our own lock survives an interrupt)', () => {
    const dir = tempDir();
    const lock = join(dir, 'x.lock');
    const plain = join(dir, 'x.tmp');
    const gone = join(dir, 'gone.tmp');
    writeFileSync(lock, '{"nonce":"ours-123"}');
    writeFileSync(plain, '');
    trackLockFile(lock, 'ours-123');
    trackSideFile(plain);
    trackSideFile(gone);
    expect(removeTrackedSideFiles()).toBe(2);
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(plain)).toBe(false);
    expect(isTracked(gone)).toBe(false);
    expect(isTracked(lock)).toBe(false);
    expect(removeTrackedSideFiles()).toBe(0);
  });
});
