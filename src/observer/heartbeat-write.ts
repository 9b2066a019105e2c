// Writes the heartbeat file atomically: a temporary file beside it (mode 0600, created
// exclusively, never through a link), flushed, then renamed over it. Concurrent stops: the last
// rename wins and the file is never torn. The observer uses node:fs itself, not the kit's fs
// seam: the seam would load the host kit on every stop.
import { basename, dirname, join } from 'node:path';
import {
  heartbeatText,
  type LastStop,
  MAX_HEARTBEAT_BYTES,
  previousStops,
} from '../shell/heartbeat-record.js';
import { fs } from './node-fs.js';

const { constants } = fs;
const { open, rename, unlink } = fs.promises;

// A previous file larger than MAX_HEARTBEAT_BYTES is not a heartbeat; the count starts again.
// Absent on Windows, where the flags are ignored anyway.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Temporary files not yet renamed, so an observer that must exit at once can remove them. */
export type PendingTemporaries = Set<string>;

export async function writeHeartbeat(
  path: string,
  lastStop: LastStop,
  pending: PendingTemporaries,
): Promise<void> {
  const text = heartbeatText(await readPrevious(path), lastStop);
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`,
  );
  pending.add(temporary);
  try {
    const handle = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW,
      0o600,
    );
    try {
      // The umask may have taken bits off; the file is the user's alone, exactly.
      await handle.chmod(0o600);
      await handle.writeFile(text);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
    pending.delete(temporary);
  } catch (err) {
    await unlink(temporary).catch(() => undefined);
    pending.delete(temporary);
    throw err;
  }
}

/** The previous count: read bounded, a regular file only, no link followed; otherwise 0. */
async function readPrevious(path: string): Promise<number> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // Non-blocking, so a FIFO planted at the path cannot hold the stop.
    handle = await open(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch {
    return 0;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_HEARTBEAT_BYTES) return 0;
    const buffer = Buffer.alloc(MAX_HEARTBEAT_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_HEARTBEAT_BYTES) return 0;
    return previousStops(buffer.toString('utf8', 0, bytesRead));
  } catch {
    return 0;
  } finally {
    await handle.close();
  }
}
