// `release`: the way out of every state no lifecycle command can prove (an owned entry the user
// edited, one removed alongside other edits, an interrupted write matching neither state). It
// ends ownership in the ledger and never touches the hook file, so nothing the user wrote is
// lost; `status` then points at any entry still running our command.
import type { ReceiptJSON } from '../../domain/receipt.js';
import type { CursorHooksError } from '../../errors/errors.js';
import { aboutFile, isBug } from '../errors.js';
import { type FsSeam, nodeFs } from '../write/fs-seam.js';
import { resolveTarget } from '../write/read.js';
import { releaseRecord } from './fence.js';
import { withLedger } from './ledger.js';

export interface ReleaseOptions {
  /** The hook file whose ownership ends; it is only resolved, never read or written. */
  readonly hooksFile: string;
  readonly ledger: string;
  readonly fs?: FsSeam;
  readonly lockTimeoutMs?: number;
  /** Replace the ledger even where its ACLs and extended attributes cannot be seen, losing them. */
  readonly acceptMetadataLoss?: boolean;
}

/** done: ownership ended; no-op: nothing was owned or pending; failed: the ledger said no. */
export interface ReleaseOutcome {
  readonly status: 'done' | 'no-op' | 'failed';
  readonly hooksFile: string;
  readonly realPath: string | undefined;
  /** The receipts released (their commands may still stand in the file, now unowned). */
  readonly released: readonly ReceiptJSON[];
  readonly generation: number;
  readonly error: CursorHooksError | undefined;
}

/** Never throws for a failure: it comes back as the outcome's `error`. */
export async function release(options: ReleaseOptions): Promise<ReleaseOutcome> {
  const fs = options.fs ?? nodeFs;
  let realPath: string | undefined;
  // The hook file's path is only resolved, never read: its failure is the hook file's own.
  let role: 'hook-file' | 'ledger' = 'hook-file';
  try {
    const key = await resolveTarget(options.hooksFile, fs);
    realPath = key;
    role = 'ledger';
    const writeOptions = {
      fs,
      role: 'ledger' as const,
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
      ...(options.acceptMetadataLoss === true ? { acceptMetadataLoss: true } : {}),
    };
    return await withLedger(options.ledger, writeOptions, async (ledger) => {
      const before = ledger.record(key);
      const after = await ledger.update(key, releaseRecord);
      const done = after !== before && after.released !== null;
      return {
        status: done ? 'done' : 'no-op',
        hooksFile: options.hooksFile,
        realPath: key,
        released: done ? (after.released?.receipts ?? []) : [],
        generation: after.generation,
        error: undefined,
      };
    });
  } catch (err) {
    if (isBug(err)) throw err;
    return {
      status: 'failed',
      hooksFile: options.hooksFile,
      realPath,
      released: [],
      generation: 0,
      error:
        role === 'ledger'
          ? aboutFile(err, 'ledger', options.ledger)
          : aboutFile(err, 'hook-file', options.hooksFile),
    };
  }
}
