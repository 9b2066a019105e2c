// The heartbeat path an install records, checked for what can never work: the observer writes a
// temporary file in the path's directory and renames it over the path, so that directory must
// exist, let this user create files (the observer runs as the user who installs), and the path
// must not be a directory. The write bit is judged as writable-directory.ts judges it, from mode
// bits; what that cannot see (ACLs, a read-only mount) is left to the observer, which warns on
// the stop it fails.
import { dirname } from 'node:path';
import { ConflictError } from '../../errors/errors.js';
import type { ErrorReason } from '../../errors/reasons.js';
import { errnoOf } from '../errors.js';
import type { FsSeam } from '../write/fs-seam.js';
import { type Credentials, processCredentials, unwritableDirectory } from './writable-directory.js';

/** A heartbeat path refused before anything is written: the path as the host gave it. */
export class HeartbeatPathError extends ConflictError {
  readonly role = 'heartbeat';

  constructor(
    reason: Extract<
      ErrorReason,
      'heartbeat-directory-missing' | 'heartbeat-is-directory' | 'heartbeat-directory-not-writable'
    >,
    readonly path: string,
  ) {
    super(reason);
  }
}

/** Undefined when the observer can write `path`'s file; else the refusal saying why not. */
export async function heartbeatPathProblem(
  path: string,
  fs: FsSeam,
  who: Credentials | null = processCredentials(),
): Promise<HeartbeatPathError | undefined> {
  // Links followed: `~/.cursor` may be one.
  const directory = await kindOf(dirname(path), fs, true);
  if (directory.kind === 'not-directory') {
    return new HeartbeatPathError('heartbeat-directory-missing', path);
  }
  // Not followed: the observer's rename replaces a link at the path, never a directory.
  if ((await kindOf(path, fs, false)).kind === 'directory') {
    return new HeartbeatPathError('heartbeat-is-directory', path);
  }
  return directory.kind === 'directory' &&
    (await unwritableDirectory([directory.real], fs, who)) !== undefined
    ? new HeartbeatPathError('heartbeat-directory-not-writable', path)
    : undefined;
}

/**
 * A directory, with the path it was looked at by (its real path when links are followed);
 * `not-directory` when the path provably is none (missing, a dangling link, a file); `unknown`
 * when the look failed otherwise (a permission), which proves nothing.
 */
type Kind =
  | { readonly kind: 'directory'; readonly real: string }
  | { readonly kind: 'not-directory' | 'unknown' };

async function kindOf(path: string, fs: FsSeam, follow: boolean): Promise<Kind> {
  try {
    const real = follow ? await fs.realpath(path) : path;
    return (await fs.lstat(real)).isDirectory()
      ? { kind: 'directory', real }
      : { kind: 'not-directory' };
  } catch (err) {
    const code = errnoOf(err);
    return { kind: code === 'ENOENT' || code === 'ENOTDIR' ? 'not-directory' : 'unknown' };
  }
}

/** Whether the directory the heartbeat is written in is provably gone (status's question). */
export async function heartbeatDirectoryGone(path: string, fs: FsSeam): Promise<boolean> {
  return (await kindOf(dirname(path), fs, true)).kind === 'not-directory';
}
