import type { HookDocument } from '../../domain/hook-document.js';
import { type HookSpec, readHookSpec } from '../../domain/hook-spec.js';
import { OwnedEntry } from '../../domain/owned-entry.js';
import { issueReceipt, Receipt } from '../../domain/receipt.js';
import { ConflictError, UnsupportedError } from '../../errors/errors.js';
import type { ShellContractRegistry } from '../../shell/registry.js';
import { isOmitted, type RequestFields } from '../request.js';

export interface OperationContext {
  readonly fields: RequestFields;
  readonly document: HookDocument;
  readonly contracts: ShellContractRegistry;
}

/** What an operation decided. `desired` undefined means the document bytes stay as they are. */
export interface Decision {
  readonly desired?: Uint8Array;
  readonly receipt?: Receipt;
}

/** The spec and shell an entry was rendered from, and the entry. */
export interface Rendered {
  readonly spec: HookSpec;
  readonly shell: string;
  readonly entry: OwnedEntry;
}

/** Install, Update and Repair may only write what the host has just verified on disk. */
export function requireVerified(fields: RequestFields): void {
  if (fields.executableVerified !== true) throw new ConflictError('executable-unverified');
}

/** The request's single spec rendered through its shell contract. */
export function renderRequested(fields: RequestFields, contracts: ShellContractRegistry): Rendered {
  const spec = readSingleSpec(fields.specs);
  const { shell } = fields;
  if (typeof shell !== 'string') throw new UnsupportedError('shell-unsupported');
  return { spec, shell, entry: OwnedEntry.render(spec, contracts.resolve(shell)) };
}

function readSingleSpec(specs: unknown): HookSpec {
  if (isOmitted(specs)) throw new ConflictError('spec-count');
  if (!Array.isArray(specs)) throw new ConflictError('spec-malformed');
  if (specs.length !== 1) throw new ConflictError('spec-count');
  return readHookSpec(specs[0]);
}

/** What a valid previous receipt proves: its rendered entry and the remainder it saw. */
export interface Previous extends Rendered {
  readonly remainderDigest: string;
}

/** The previous receipt, validated and re-rendered; undefined when none was given. */
export function readPrevious(
  fields: RequestFields,
  contracts: ShellContractRegistry,
): Previous | undefined {
  if (isOmitted(fields.previous)) return undefined;
  const receipt = Receipt.fromJSON(fields.previous);
  const { spec, shell, remainderDigest } = receipt;
  return { spec, shell, remainderDigest, entry: receipt.ownedEntry(contracts) };
}

export function requirePrevious(fields: RequestFields, contracts: ShellContractRegistry): Previous {
  const previous = readPrevious(fields, contracts);
  if (previous === undefined) throw new ConflictError('receipt-required');
  return previous;
}

/** A receipt naming what was rendered, with the remainder of the resulting document. */
export function issue(rendered: Rendered, remainderDigest: string): Receipt {
  return issueReceipt(rendered.spec, rendered.shell, rendered.entry, remainderDigest);
}
