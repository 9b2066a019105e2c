// The user's file as it was before the probe, given back. Remove takes the probe entry out but
// keeps a `stop` array (or a whole file) the install had to create, so a file that started
// without one would not end byte-identical. Only when the file is exactly what installing and
// removing the probe entry leave is it put back to its starting bytes, or deleted again if the
// probe created it; any edit of the user's since start is kept as it is.

import type { HookSpec } from '../../domain/hook-spec.js';
import { MAX_DOCUMENT_BYTES } from '../../limits.js';
import type { HookPlanner } from '../../planner/hook-planner.js';
import { Operation } from '../../planner/operation.js';
import { withSweptLock } from '../lock/lock.js';
import { readLocked } from '../lock/read-locked.js';
import { equalBytes } from '../write/bytes.js';
import { compareAndSwap } from '../write/cas-write.js';
import type { FsSeam } from '../write/fs-seam.js';
import { type FileSnapshot, readFileSnapshot } from '../write/read.js';
import { readPrivate, replacePrivate } from './probe-files.js';

// As many bytes as readStart keeps of the hook file: one more than a document may have.
const MAX_START_BYTES = MAX_DOCUMENT_BYTES + 1;

/** The hook file as it is before the probe entry goes in. */
export async function readStart(hooksFile: string, fs: FsSeam): Promise<FileSnapshot> {
  return readFileSnapshot(hooksFile, fs, { role: 'hook-file' });
}

/** Keeps those bytes in the state directory, for restoreStart. */
export async function saveStart(start: FileSnapshot, startFile: string, fs: FsSeam): Promise<void> {
  await replacePrivate(startFile, start.bytes, fs);
}

export interface StartOf {
  readonly hooksFile: string;
  readonly startFile: string;
  readonly existed: boolean;
  readonly spec: HookSpec;
  readonly shell: string;
  readonly planner: HookPlanner;
}

/** Puts the starting bytes back when the file is exactly the probe's leftover. */
export async function restoreStart(start: StartOf, fs: FsSeam): Promise<void> {
  let before: Uint8Array = new Uint8Array(0);
  if (start.existed) {
    const saved = await readPrivate(start.startFile, fs, MAX_START_BYTES);
    // Not saved (a start killed before it got that far): nothing is known to give back.
    if (saved === undefined) return;
    before = saved;
  }
  const leftover = leftoverOf(start, start.existed ? before : null);
  if (leftover === undefined || (start.existed && equalBytes(leftover, before))) return;
  await withSweptLock(
    start.hooksFile,
    async (realPath) => {
      const current = await readLocked(start.hooksFile, realPath, fs, { role: 'hook-file' });
      if (!current.exists || !equalBytes(current.bytes, leftover)) return;
      // The lock is held here, so the swap itself, not writeHookFile, which would take it again.
      if (start.existed) await compareAndSwap(start.hooksFile, current, before, { fs });
      else await fs.unlink(realPath);
    },
    { fs },
  );
}

/** What installing the probe entry into `before` and removing it again leave; pure. */
function leftoverOf(start: StartOf, before: Uint8Array | null): Uint8Array | undefined {
  const installed = start.planner.plan({
    document: before,
    operation: Operation.Install,
    specs: [start.spec],
    shell: start.shell,
    executableVerified: true,
  });
  if (installed.error !== undefined || installed.receipt === undefined) return undefined;
  const removed = start.planner.plan({
    document: installed.desired,
    operation: Operation.Remove,
    previous: installed.receipt,
  });
  return removed.error === undefined ? removed.desired : undefined;
}
