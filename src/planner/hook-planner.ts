import { HookDocument } from '../domain/hook-document.js';
import { Receipt, type ReceiptJSON } from '../domain/receipt.js';
import { asConflict, ConflictError, type CursorHooksError } from '../errors/errors.js';
import { MAX_DOCUMENT_BYTES } from '../limits.js';
import type { ShellContract } from '../shell/contract.js';
import type { ShellContractRegistry } from '../shell/registry.js';
import { renderThrough } from '../shell/render.js';
import { Operation } from './operation.js';
import type { Decision, OperationContext } from './operations/context.js';
import { install } from './operations/install.js';
import { remove } from './operations/remove.js';
import { repair } from './operations/repair.js';
import { update } from './operations/update.js';
import {
  type DocumentRead,
  type PlanRequest,
  type PlanResult,
  readDocument,
  readRequest,
  readRequestDocument,
} from './request.js';

const OPERATIONS: ReadonlyMap<unknown, (context: OperationContext) => Decision> = new Map([
  [Operation.Install, install],
  [Operation.Update, update],
  [Operation.Remove, remove],
  [Operation.Repair, repair],
]);

/**
 * Plans edits to Cursor's user hook file for the one owned stop entry. Pure: bytes and a
 * receipt in, bytes and a receipt out; every check happens before any edit.
 */
export class HookPlanner {
  constructor(private readonly registry: ShellContractRegistry) {}

  /** Never throws: every refusal is a result with `conflict` set and the input bytes. */
  plan(request: PlanRequest): PlanResult {
    let input: DocumentRead = { bytes: EMPTY, given: EMPTY };
    try {
      input = readRequestDocument(request);
      const fields = readRequest(request, input.bytes);
      const operate = OPERATIONS.get(fields.operation);
      if (operate === undefined) throw new ConflictError('operation-unknown');
      const decision = operate({
        fields,
        document: HookDocument.read(input.bytes),
        contracts: this.registry,
      });
      return {
        desired: decision.desired ?? copyOf(input.bytes),
        receipt: decision.receipt,
        noOp: decision.desired === undefined,
        conflict: false,
        error: undefined,
      };
    } catch (err) {
      return refusal(input, asConflict(err));
    }
  }

  /** Throws ConflictError unless `document` holds the receipt's intact, unique owned entry. */
  verifyOwned(document: Uint8Array, receipt: Receipt | ReceiptJSON): void {
    try {
      const entry = Receipt.fromJSON(receipt).ownedEntry(this.registry);
      HookDocument.read(readDocument(document)).locateOwner(entry);
    } catch (err) {
      throw asConflict(err);
    }
  }

  /** Renders argv through a registered contract; throws UnsupportedError outside its grammar. */
  renderArgv(shell: string, argv: readonly string[]): string {
    return renderThrough(this.registry.resolve(shell), argv);
  }

  /** The registered contracts, in registration order, for host display. */
  contracts(): readonly ShellContract[] {
    return this.registry.all();
  }
}

const EMPTY: Uint8Array = new Uint8Array(0);

/** Results own their bytes, so a host mutating one can never reach the other. */
function copyOf(bytes: Uint8Array): Uint8Array {
  // Allocate and set: one memcpy, where `new Uint8Array(bytes)` copies element by element.
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/**
 * A refusal hands back the input bytes, with nothing to write. Oversized input is returned as
 * the host's own object, so refusing it never costs an oversized copy; only the plain view's
 * length is read, never the host object's.
 */
function refusal(input: DocumentRead, error: CursorHooksError): PlanResult {
  const { bytes, given } = input;
  const desired = bytes.length > MAX_DOCUMENT_BYTES ? given : copyOf(bytes);
  return { desired, receipt: undefined, noOp: true, conflict: true, error };
}
