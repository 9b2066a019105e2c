// Reading a lock record, a file anyone who can write beside the target can plant or break. The
// name is never followed: a symlink (dangling or not), a directory, a FIFO, a device, an empty
// or oversized file, and anything that is not exactly our record are `foreign`. Ours are linked
// into place complete and flushed, so even an empty file is never ours mid-write.
import type { Stats } from 'node:fs';
import { MAX_LOCK_RECORD_BYTES } from '../../limits.js';
import { aboutFile, asHostError, errnoOf } from '../errors.js';
import { FLAGS } from '../write/fs-calls.js';
import type { FsSeam, OpenFile } from '../write/fs-seam.js';
import { readBounded } from '../write/read.js';
import type { ProcessIdentity } from './process-identity.js';

export interface LockOwner extends ProcessIdentity {
  readonly pid: number;
  readonly hostname: string;
  readonly acquiredAt: string;
  readonly nonce: string;
}

/** Text fields of a record longer than this are not ours (a host name is at most 255 bytes). */
const MAX_FIELD_CHARS = 256;

/** What a lock name holds: our record, nothing (`gone`), or something we did not write. */
export type LockRecord = LockOwner | 'gone' | 'foreign';

/**
 * The lock's owner; `gone` if nothing is there (released meanwhile); `foreign` if it is not our
 * record. Records from before the process identity (pid, hostname, acquiredAt, nonce only) still
 * read. A failure names the lock.
 */
export async function readOwner(lockPath: string, fs: FsSeam): Promise<LockRecord> {
  try {
    const bytes = await readRecordBytes(lockPath, fs);
    return bytes === 'gone' || bytes === 'foreign' ? bytes : parseRecord(bytes);
  } catch (err) {
    throw aboutFile(err, 'lock', lockPath);
  }
}

export function isOwner(record: LockRecord): record is LockOwner {
  return record !== 'gone' && record !== 'foreign';
}

/**
 * The name's bytes, if it is a small regular file. lstat first, so a device or FIFO is never
 * even opened; O_NOFOLLOW, so a link swapped in after the lstat is not followed either.
 */
async function readRecordBytes(path: string, fs: FsSeam): Promise<Uint8Array | 'gone' | 'foreign'> {
  let seen: Stats;
  try {
    seen = await fs.lstat(path);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return 'gone';
    throw asHostError(err);
  }
  if (!isRecordSized(seen)) return 'foreign';
  let handle: OpenFile;
  try {
    handle = await fs.open(path, FLAGS.readNoFollow);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT') return 'gone';
    // Replaced since the lstat: ELOOP (EMLINK on BSD) a symlink, ENXIO a socket, EISDIR a directory.
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'ENXIO' || code === 'EISDIR') {
      return 'foreign';
    }
    throw asHostError(err);
  }
  try {
    const stats = await fs.fstat(handle);
    if (!isRecordSized(stats)) return 'foreign';
    const bytes = await readBounded(handle, stats.size, fs, MAX_LOCK_RECORD_BYTES);
    return bytes.length === 0 || bytes.length > MAX_LOCK_RECORD_BYTES ? 'foreign' : bytes;
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
}

function isRecordSized(stats: Stats): boolean {
  return stats.isFile() && stats.size > 0 && stats.size <= MAX_LOCK_RECORD_BYTES;
}

function parseRecord(bytes: Uint8Array): LockRecord {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return 'foreign';
  }
  if (typeof value !== 'object' || value === null) return 'foreign';
  const record = value as Record<string, unknown>;
  const { pid, hostname, acquiredAt, nonce } = record;
  // A pid of 0 or below names a process group to kill(2), never one process.
  if (!Number.isSafeInteger(pid) || (pid as number) <= 0) return 'foreign';
  if (!isField(hostname) || !isField(acquiredAt) || !isField(nonce)) return 'foreign';
  const identity: Record<string, string> = {};
  for (const key of ['bootId', 'pidNs', 'startTime'] as const) {
    const field = record[key];
    if (typeof field !== 'string') continue;
    if (!isField(field)) return 'foreign';
    identity[key] = field;
  }
  return { pid: pid as number, hostname, acquiredAt, nonce, ...identity };
}

function isField(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_FIELD_CHARS;
}
