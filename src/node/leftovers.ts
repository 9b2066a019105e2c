// The names of the kit's own side files beside a target, and the clean-up of those a killed
// process left behind. Every side file carries its creator's pid, so a dead creator proves the
// file is garbage; a live one is never touched. One stamped with our own pid is a dead
// predecessor's (containers reuse low pids) unless this process tracks it as its own staging
// file; its temp files exist only inside its hold of the lock the caller now holds.
import { basename, dirname, join } from 'node:path';
import { asHostError, errnoOf } from './errors.js';
import type { FsSeam } from './fs-seam.js';
import { pidAlive } from './process-identity.js';
import { randomHex } from './random.js';
import { isTracked } from './side-file-registry.js';

export { pidAlive };

export type SideFileKind = 'tmp' | 'lock-tmp';

const MARK = '.cursorhooks-';

/** The lock file beside a target: one per real target. */
export function lockPathOf(realPath: string): string {
  return `${realPath}${MARK}lock`;
}

/** A fresh, unique side-file name in the target's directory, stamped with this pid. */
export async function sideFileName(realPath: string, kind: SideFileKind): Promise<string> {
  const unique = `${process.pid}-${await randomHex(6)}`;
  return `${realPath}${MARK}${kind === 'tmp' ? '' : 'lock-'}${unique}.tmp`;
}

/** The creator pid of one of our side files for `base`, or undefined for any other name. */
export function sideFilePid(base: string, name: string): number | undefined {
  if (!name.startsWith(base + MARK)) return undefined;
  const match = /^(?:lock-)?(\d+)-[0-9a-f]{12}\.tmp$/.exec(name.slice(base.length + MARK.length));
  return match === null ? undefined : Number(match[1]);
}

/**
 * Whether any of our side files (a lock, a staging or temp file, live or left by a killed
 * process) stands beside `realPath`: names only, one directory read.
 */
export async function hasSideFiles(realPath: string, fs: FsSeam): Promise<boolean> {
  const prefix = basename(realPath) + MARK;
  try {
    return (await fs.readdir(dirname(realPath))).some((name) => name.startsWith(prefix));
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return false;
    throw asHostError(err);
  }
}

/** Removes side files of `realPath` whose creator is dead. Call it holding the target's lock. */
export async function removeLeftovers(realPath: string, fs: FsSeam): Promise<void> {
  const base = basename(realPath);
  let names: string[];
  try {
    names = await fs.readdir(dirname(realPath));
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return;
    throw asHostError(err);
  }
  for (const name of names) {
    const pid = sideFilePid(base, name);
    const path = join(dirname(realPath), name);
    if (pid === undefined) continue;
    if (pid === process.pid ? isTracked(path) : pidAlive(pid)) continue;
    await fs.unlink(path).catch((err: unknown) => {
      if (errnoOf(err) !== 'ENOENT') throw asHostError(err);
    });
  }
}
