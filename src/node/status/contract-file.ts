// The contract file the ledger remembers for a receipt, as it stands now: still the bytes the
// receipt was made with (found), gone from its place (missing), other bytes (changed), or not
// readable. Only a found record may stand for the receipt's contract: a changed grammar is never
// trusted in its place.
import { sha256Hex } from '../../json/sha256.js';
import { HostIOError } from '../errors.js';
import type { ContractFileRecord } from '../ledger/ledger.js';
import { readBoundedFile } from '../write/bounded-file.js';
import { type FsSeam, nodeFs } from '../write/fs-seam.js';

/** A qualification record is a few kilobytes; a larger file is not one. */
export const MAX_CONTRACT_FILE_BYTES = 256 * 1024;

/**
 * changed: other bytes, or no longer a regular file within the size limit; unreadable: the
 * file is there but cannot be read (its permissions), so nothing is known of its bytes.
 */
export type ContractFileState = 'found' | 'missing' | 'changed' | 'unreadable';

export interface RecordedContractFile {
  readonly path: string;
  readonly id: string;
  readonly state: ContractFileState;
}

export interface ContractFileLook {
  readonly state: ContractFileState;
  /** The record's bytes, only when found. */
  readonly bytes: Uint8Array | undefined;
}

/** SHA-256 of a record's exact bytes, as the ledger keeps it. */
export const contractFileDigest = (bytes: Uint8Array): string => sha256Hex(bytes);

/** Reads the recorded file, bounded and never blocking on a FIFO, and compares its digest. */
export async function lookAtContractFile(
  record: ContractFileRecord,
  fs: FsSeam = nodeFs,
): Promise<ContractFileLook> {
  try {
    const file = await readBoundedFile(record.path, fs, { maxBytes: MAX_CONTRACT_FILE_BYTES });
    if (file === undefined) return { state: 'missing', bytes: undefined };
    return contractFileDigest(file.bytes) === record.sha256
      ? { state: 'found', bytes: file.bytes }
      : { state: 'changed', bytes: undefined };
  } catch (err) {
    if (!(err instanceof HostIOError)) throw err;
    // A parent directory that became a file is the record gone as surely as an absent name.
    if (err.code === 'ENOTDIR') return { state: 'missing', bytes: undefined };
    const replaced = err.reason === 'file-too-large' || err.reason === 'file-not-regular';
    return { state: replaced ? 'changed' : 'unreadable', bytes: undefined };
  }
}
