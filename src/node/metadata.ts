// What the writer carries from the old file to its replacement beyond mode and owner: every
// extended attribute, which on Linux includes the POSIX ACL. The replacement gets exactly the
// old set (an ACL inherited from the directory's default is removed), verified before the
// rename; what cannot be carried over refuses the write, so access is never widened.
import { equalBytes } from './bytes.js';
import { errnoOf, HostIOError } from './errors.js';
import { type FsSeam, nodeFs } from './fs-seam.js';

/** Whether the writer can see (and so preserve) extended attributes and ACLs here. */
export type MetadataCheck =
  | { readonly performed: true }
  | { readonly performed: false; readonly why: 'xattrs-unavailable' | 'acls-not-xattrs' };

/**
 * For status: `xattrs-unavailable` when the optional module is absent or has no binary for this
 * platform (Windows); `acls-not-xattrs` on macOS, whose ACLs Node cannot read at all.
 */
export async function metadataCheck(fs: FsSeam = nodeFs): Promise<MetadataCheck> {
  // Installed is enough to say so: every write then lists, copies and verifies for real, and
  // refuses what it cannot carry over.
  if (!(await fs.xattrsInstalled())) return { performed: false, why: 'xattrs-unavailable' };
  if (process.platform === 'darwin') return { performed: false, why: 'acls-not-xattrs' };
  return { performed: true };
}

/** Gives `to` exactly the extended attributes of `from`, or throws metadata-not-preserved. */
export async function copyMetadata(from: string, to: string, fs: FsSeam): Promise<void> {
  try {
    const wanted = await attributes(from, fs);
    if (wanted === undefined) return;
    const present = (await attributes(to, fs)) ?? new Map<string, Uint8Array>();
    // Already the same set (the common case: none on either): nothing to change or verify.
    if (sameAttributes(present, wanted)) return;
    for (const name of present.keys()) if (!wanted.has(name)) await fs.removeXattr(to, name);
    for (const [name, value] of wanted) {
      const had = present.get(name);
      if (had === undefined || !equalBytes(had, value)) await fs.setXattr(to, name, value);
    }
    if (!sameAttributes((await attributes(to, fs)) ?? new Map(), wanted)) {
      throw new HostIOError('metadata-not-preserved');
    }
  } catch (err) {
    if (err instanceof HostIOError) throw err;
    throw new HostIOError('metadata-not-preserved', errnoOf(err));
  }
}

/** Name to value; undefined when Node cannot see attributes, empty where the file system has none. */
async function attributes(path: string, fs: FsSeam): Promise<Map<string, Uint8Array> | undefined> {
  let names: string[] | undefined;
  try {
    names = await fs.listXattrs(path);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOTSUP' || code === 'EOPNOTSUPP') return new Map();
    throw err;
  }
  if (names === undefined) return undefined;
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
