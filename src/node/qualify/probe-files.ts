// The probe directory's files, made and removed through the fs seam like every other write of
// the kit, so a crash between any two of these steps can be tested, and Windows' transient
// refusals are retried.
import { dirname, join } from 'node:path';
import { aboutFile, errnoOf, HostIOError } from '../errors.js';
import { withSweptLock } from '../lock/lock.js';
import { sideFileName } from '../side-files/leftovers.js';
import { trackSideFile } from '../side-files/side-file-registry.js';
import { readBoundedFile } from '../write/bounded-file.js';
import { syncDirectory } from '../write/cas-write.js';
import { FLAGS, type FsSeam } from '../write/fs-seam.js';
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

/**
 * Replaces `file` in the state directory with `bytes`, 0o600: a new name made exclusively, then
 * renamed over `file`. A rename replaces the name itself, so a link planted there is replaced,
 * never written through.
 */
export async function replacePrivate(file: string, bytes: Uint8Array, fs: FsSeam): Promise<void> {
  const temp = await sideFileName(file, 'tmp');
  // Tracked from before it exists, so an interrupt handler removes it whenever it is there.
  const untrack = trackSideFile(temp);
  let renamed = false;
  try {
    await writeNew(fs, temp, bytes, PRIVATE_FILE);
    await fs.rename(temp, file);
    renamed = true;
    await syncDirectory(dirname(file), fs);
  } catch (err) {
    throw aboutFile(err, 'probe', file);
  } finally {
    if (!renamed) await fs.unlink(temp).catch(() => undefined);
    untrack();
  }
}

/** A file of the state directory, never through a link, at most `maxBytes`; undefined if absent. */
export async function readPrivate(
  file: string,
  fs: FsSeam,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  try {
    return (await readBoundedFile(file, fs, { maxBytes, noFollow: true }))?.bytes;
  } catch (err) {
    throw aboutFile(err, 'probe', file);
  }
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
    // The name, not the lock's resolved path: a link there goes, never the file it names.
    await withSweptLock(file, () => fs.unlink(file), { fs }).catch((err: unknown) => {
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
