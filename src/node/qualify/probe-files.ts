// The probe directory's files, made and removed through the fs seam like every other write of
// the kit, so a crash between any two of these steps can be tested, and Windows' transient
// refusals are retried.
import { join } from 'node:path';
import { writeHookFile } from '../cas-write.js';
import { aboutFile, errnoOf, HostIOError } from '../errors.js';
import { FLAGS, type FsSeam } from '../fs-seam.js';
import { withSweptLock } from '../lock.js';
import { readFileSnapshot } from '../read.js';
import type { ProbeLayout } from './layout.js';
import { recorderScript } from './recorder-script.js';
import { bindingBytes } from './recording.js';

const PRIVATE_DIRECTORY = 0o700;
const PRIVATE_FILE = 0o600;
const EXECUTABLE = 0o700;
// The layout is three levels deep (probe, recordings, one recording); more is not ours.
const MAX_DEPTH = 4;

export async function makeProbeDirectory(
  layout: ProbeLayout,
  ownRecorder: boolean,
  fs: FsSeam,
): Promise<void> {
  try {
    await fs.mkdir(layout.recordings, PRIVATE_DIRECTORY);
    await writeNew(fs, layout.binding, bindingBytes(layout.recordings), PRIVATE_FILE);
    if (ownRecorder) {
      const script = new TextEncoder().encode(recorderScript(layout.recordings));
      await writeNew(fs, layout.scriptRecorder, script, EXECUTABLE);
    }
  } catch (err) {
    throw aboutFile(err, 'probe', layout.probeDir);
  }
}

/** A new file with exactly `mode` (fchmod, so the umask cannot take the execute bit away). */
async function writeNew(fs: FsSeam, path: string, bytes: Uint8Array, mode: number): Promise<void> {
  const handle = await fs.open(path, FLAGS.createExclusive, mode);
  try {
    await fs.write(handle, bytes);
    await fs.fchmod(handle, mode);
    await fs.fsync(handle);
  } finally {
    await fs.close(handle);
  }
}

/** Replaces `file` in the state directory with `bytes`, by the kit's compare-and-swap, 0o600. */
export async function replacePrivate(file: string, bytes: Uint8Array, fs: FsSeam): Promise<void> {
  const before = await readFileSnapshot(file, fs, { role: 'probe', emptySettleMs: 0 });
  await writeHookFile(file, before, bytes, { fs, role: 'probe', newFileMode: PRIVATE_FILE });
}

/** Deletes the probe directory, the saved start, the probe ledger and the state file, the state file last. */
export async function clearProbe(layout: ProbeLayout, fs: FsSeam): Promise<void> {
  try {
    await removeTree(fs, layout.probeDir, MAX_DEPTH);
  } catch (err) {
    throw aboutFile(err, 'probe', layout.probeDir);
  }
  // Under each file's own lock, which first clears what a killed writer left beside it.
  for (const file of [layout.startFile, layout.ledger, layout.stateFile]) {
    await withSweptLock(file, (realPath) => fs.unlink(realPath), { fs }).catch((err: unknown) => {
      if (errnoOf(err) !== 'ENOENT') throw aboutFile(err, 'probe', file);
    });
  }
}

/** Like `rm -r`, never following a symbolic link; an absent path is already removed. */
async function removeTree(fs: FsSeam, path: string, depth: number): Promise<void> {
  let stats: Awaited<ReturnType<FsSeam['lstat']>>;
  try {
    stats = await fs.lstat(path);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return;
    throw err;
  }
  if (!stats.isDirectory()) return fs.unlink(path);
  // Deeper than the layout: not the probe's, so nothing more is removed.
  if (depth === 0) throw new HostIOError('io-failure', 'ENOTEMPTY', { path, role: 'probe' });
  for (const name of await fs.readdir(path)) await removeTree(fs, join(path, name), depth - 1);
  await fs.rmdir(path);
}
