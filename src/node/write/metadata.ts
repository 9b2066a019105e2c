// What the writer carries from the old file to its replacement beyond mode and owner: every
// extended attribute, which on Linux includes the POSIX ACL. The replacement gets exactly the
// old set (an ACL inherited from the directory's default is removed), verified before the
// rename; what cannot be carried over refuses the write, so access is never widened.

import { errnoOf, HostIOError } from '../errors.js';
import { equalBytes } from './bytes.js';
import { type FsSeam, nodeFs } from './fs-seam.js';

/**
 * What a write that replaces an existing file does with its ACLs and extended attributes:
 * `preserve` lists, copies and verifies them (refusing what it cannot carry over); `refuse`
 * refuses, since the writer cannot see them; `accept-loss` replaces the file without them, as
 * the caller accepted; `unchecked` (Windows) replaces it without seeing its ACLs.
 */
export type MetadataWrites = 'preserve' | 'refuse' | 'accept-loss' | 'unchecked';

/** Whether the writer can see (and so preserve) extended attributes and ACLs, and what it does. */
export type MetadataCheck =
  | { readonly performed: true; readonly writes: 'preserve' }
  | { readonly performed: false; readonly why: 'acls-not-xattrs'; readonly writes: 'preserve' }
  | {
      readonly performed: false;
      readonly why: 'module-unloadable';
      readonly writes: 'refuse' | 'accept-loss';
    }
  | { readonly performed: false; readonly why: 'windows-acls'; readonly writes: 'unchecked' };

export interface MetadataOptions {
  /** Replace an existing file even where the writer cannot see its ACLs and attributes. */
  readonly acceptMetadataLoss?: boolean;
}

/**
 * The one decision, for status and for every write alike: `module-unloadable` when the native
 * module does not load here; `acls-not-xattrs` on macOS, whose ACLs Node cannot read at all;
 * `windows-acls` on Windows, whose ACLs are no extended attributes (the module has no build).
 */
export async function metadataCheck(
  fs: FsSeam = nodeFs,
  options: MetadataOptions = {},
): Promise<MetadataCheck> {
  if (process.platform === 'win32') {
    return { performed: false, why: 'windows-acls', writes: 'unchecked' };
  }
  // node:fs has no listxattr, and getfattr is neither installed everywhere nor safe to take from
  // PATH: without the module any existing file may hold an ACL, so replacing it refuses.
  if (!(await fs.xattrsLoaded())) {
    const writes = options.acceptMetadataLoss === true ? 'accept-loss' : 'refuse';
    return { performed: false, why: 'module-unloadable', writes };
  }
  if (process.platform === 'darwin') {
    return { performed: false, why: 'acls-not-xattrs', writes: 'preserve' };
  }
  return { performed: true, writes: 'preserve' };
}

/** Throws metadata-not-preserved when replacing an existing file would drop what is unseen. */
export async function refuseUnseenMetadata(fs: FsSeam, options: MetadataOptions): Promise<void> {
  if ((await metadataCheck(fs, options)).writes === 'refuse') {
    throw new HostIOError('metadata-not-preserved');
  }
}

/**
 * Gives `to` exactly the extended attributes of `from`, or throws metadata-not-preserved; where
 * the writer cannot see them, refuses unless the caller accepted their loss.
 */
export async function copyMetadata(
  from: string,
  to: string,
  fs: FsSeam,
  options: MetadataOptions = {},
): Promise<void> {
  if ((await metadataCheck(fs, options)).writes !== 'preserve') {
    return refuseUnseenMetadata(fs, options);
  }
  try {
    const wanted = await attributes(from, fs);
    const present = await attributes(to, fs);
    // Already the same set (the common case: none on either): nothing to change or verify.
    if (sameAttributes(present, wanted)) return;
    for (const name of present.keys()) if (!wanted.has(name)) await fs.removeXattr(to, name);
    for (const [name, value] of wanted) {
      const had = present.get(name);
      if (had === undefined || !equalBytes(had, value)) await fs.setXattr(to, name, value);
    }
    if (!sameAttributes(await attributes(to, fs), wanted)) {
      throw new HostIOError('metadata-not-preserved');
    }
  } catch (err) {
    if (err instanceof HostIOError) throw err;
    throw new HostIOError('metadata-not-preserved', errnoOf(err));
  }
}

/** Name to value; empty where the file system has none. */
async function attributes(path: string, fs: FsSeam): Promise<Map<string, Uint8Array>> {
  let names: string[];
  try {
    names = await fs.listXattrs(path);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOTSUP' || code === 'EOPNOTSUPP') return new Map();
    throw err;
  }
  const values = new Map<string, Uint8Array>();
  for (const name of names) values.set(name, (await fs.getXattr(path, name)) ?? new Uint8Array(0));
  return values;
}

function sameAttributes(
  a: ReadonlyMap<string, Uint8Array>,
  b: ReadonlyMap<string, Uint8Array>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [name, value] of a) {
    const other = b.get(name);
    if (other === undefined || !equalBytes(value, other)) return false;
  }
  return true;
}
