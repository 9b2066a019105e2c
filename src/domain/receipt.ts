import { ConflictError } from '../errors/errors.js';
import type { ShellContractRegistry } from '../shell/registry.js';
import { type HookSpec, readExactRecord, readHookSpec } from './hook-spec.js';
import { OwnedEntry } from './owned-entry.js';

/** A receipt as a host stores it: exactly these six members. */
export interface ReceiptJSON {
  readonly version: 1;
  readonly event: 'stop';
  readonly spec: { readonly executable: string; readonly selector: string };
  readonly shell: string;
  readonly entryDigest: string;
  readonly remainderDigest: string;
}

const DIGEST_PREFIX = 'sha256:';
const DIGEST_LENGTH = DIGEST_PREFIX.length + 64;

const RECEIPT_KEYS = [
  'version',
  'event',
  'spec',
  'shell',
  'entryDigest',
  'remainderDigest',
] as const;

/**
 * Trusted host state proving what was written: the spec, the shell and two digests, never any
 * foreign bytes. It is not authentication; it only lets the planner tell its own entry apart.
 */
export class Receipt {
  readonly version = 1;
  readonly event = 'stop';
  readonly spec: HookSpec;
  readonly shell: string;
  readonly entryDigest: string;
  readonly remainderDigest: string;

  /** Validates exactly as strictly as `fromJSON`. */
  constructor(json: ReceiptJSON) {
    const fields = issuing ? json : validReceipt(json);
    this.spec = Object.freeze({
      executable: fields.spec.executable,
      selector: fields.spec.selector,
    });
    this.shell = fields.shell;
    this.entryDigest = fields.entryDigest;
    this.remainderDigest = fields.remainderDigest;
    Object.freeze(this);
  }

  /** Throws ConflictError (`receipt-malformed`) for anything but exactly a ReceiptJSON. */
  static fromJSON(value: unknown): Receipt {
    // A Receipt instance is re-read like any object (its own fields are exactly the JSON
    // members): its prototype proves nothing. A proxy or getter that throws is malformed too.
    try {
      return new Receipt(value as ReceiptJSON);
    } catch {
      throw new ConflictError('receipt-malformed');
    }
  }

  toJSON(): ReceiptJSON {
    return {
      version: this.version,
      event: this.event,
      spec: { executable: this.spec.executable, selector: this.spec.selector },
      shell: this.shell,
      entryDigest: this.entryDigest,
      remainderDigest: this.remainderDigest,
    };
  }

  /**
   * The entry this receipt proves. It is valid only if re-rendering its spec with its shell
   * reproduces its entry digest, so a receipt invented around an edited entry proves nothing.
   */
  ownedEntry(contracts: ShellContractRegistry): OwnedEntry {
    const entry = OwnedEntry.render(this.spec, contracts.resolve(this.shell));
    if (entry.digest !== this.entryDigest) throw new ConflictError('receipt-entry-mismatch');
    return entry;
  }
}

/**
 * Set only while `issueReceipt` constructs: its values are the planner's own (a validated spec
 * and shell, computed digests), so checking them again would only cost time.
 */
let issuing = false;

/**
 * The planner's receipt for what it just rendered. Private to the package (the public barrel
 * does not export it, and the class has no such static), so a host can only build receipts
 * that pass validation.
 */
export function issueReceipt(
  spec: HookSpec,
  shell: string,
  entry: OwnedEntry,
  remainderDigest: string,
): Receipt {
  issuing = true;
  try {
    return new Receipt({
      version: 1,
      event: 'stop',
      spec,
      shell,
      entryDigest: entry.digest,
      remainderDigest,
    });
  } finally {
    issuing = false;
  }
}

/** Exactly a ReceiptJSON, with each value read once; anything else is `receipt-malformed`. */
function validReceipt(json: unknown): ReceiptJSON {
  const { version, event, spec, shell, entryDigest, remainderDigest } = readExactRecord(
    json,
    RECEIPT_KEYS,
    'receipt-malformed',
  );
  if (
    version !== 1 ||
    event !== 'stop' ||
    typeof shell !== 'string' ||
    !isDigest(entryDigest) ||
    !isDigest(remainderDigest)
  ) {
    throw new ConflictError('receipt-malformed');
  }
  return {
    version,
    event,
    spec: readHookSpec(spec, 'receipt-malformed'),
    shell,
    entryDigest,
    remainderDigest,
  };
}

/** `sha256:` and 64 lowercase hex digits, the form digestOf writes. */
function isDigest(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== DIGEST_LENGTH) return false;
  if (!value.startsWith(DIGEST_PREFIX)) return false;
  for (let i = DIGEST_PREFIX.length; i < DIGEST_LENGTH; i++) {
    const code = value.charCodeAt(i);
    if (!((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66))) return false;
  }
  return true;
}
