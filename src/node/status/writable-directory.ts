// Whether a write could create its side files beside a target, judged before anything is
// written, so status never names a step its directory would refuse (directory-not-writable).
// Judged from mode bits as the kernel does for this process: owner class, else group, else
// other; root may always. Not seen here: POSIX ACLs, read-only mounts and Windows ACLs (the
// write itself still refuses those, naming the directory).
import type { Stats } from 'node:fs';
import { dirname } from 'node:path';
import { errnoOf } from '../errors.js';
import type { FsSeam } from '../write/fs-seam.js';

/** The process's credentials; null where Node has none (Windows). */
export interface Credentials {
  readonly uid: number;
  readonly gids: ReadonlySet<number>;
}

/** This process's credentials, as the kernel checks them. */
export function processCredentials(): Credentials | null {
  if (process.getuid === undefined || process.getgid === undefined) return null;
  const groups = process.getgroups?.() ?? [];
  return { uid: process.getuid(), gids: new Set([process.getgid(), ...groups]) };
}

/** The write bit of the class this process falls in, as permission checks pick it. */
function mayCreateIn(stats: Stats, who: Credentials): boolean {
  if (who.uid === 0) return true;
  if (stats.uid === who.uid) return (stats.mode & 0o200) !== 0;
  if (who.gids.has(stats.gid)) return (stats.mode & 0o020) !== 0;
  return (stats.mode & 0o002) !== 0;
}

/**
 * The first of `directories` (or, for one that does not exist yet, the nearest existing parent
 * a write would create it in) that refuses this process new files; undefined if none does or
 * it cannot be judged here.
 */
export async function unwritableDirectory(
  directories: readonly string[],
  fs: FsSeam,
  who: Credentials | null = processCredentials(),
): Promise<string | undefined> {
  if (who === null) return undefined;
  for (const directory of directories) {
    const existing = await nearestExisting(directory, fs);
    if (existing !== undefined && !mayCreateIn(existing.stats, who)) return existing.path;
  }
  return undefined;
}

async function nearestExisting(
  path: string,
  fs: FsSeam,
): Promise<{ readonly path: string; readonly stats: Stats } | undefined> {
  for (let at = path; ; at = dirname(at)) {
    try {
      const stats = await fs.lstat(at);
      return stats.isDirectory() ? { path: at, stats } : undefined;
    } catch (err) {
      // Anything but "not there" (a loop, no permission to look) is left to the write to report.
      if (errnoOf(err) !== 'ENOENT' || dirname(at) === at) return undefined;
    }
  }
}
