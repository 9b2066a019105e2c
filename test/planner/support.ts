// Shared builders and assertions for the planner lifecycle tests. Everything is exercised
// through the public barrel; only the fixed message table is read from its module, so a message
// built from input (instead of looked up) is caught.

import { Buffer } from 'node:buffer';
import { expect } from 'vitest';
import { REASON_MESSAGES } from '../../src/errors/reasons.js';
import {
  AbsenceUnprovenError,
  ConflictError,
  CursorHooksError,
  errorIs,
  type HookSpec,
  LinuxUserShell32212,
  Operation,
  type PlanRequest,
  type PlanResult,
  plan,
  type Receipt,
  type ReceiptJSON,
  UnsupportedError,
  verifyOwned,
} from '../../src/index.js';
import { SPEC_MAX_BYTES, thrownBy, utf8 } from '../support/common.js';

export type Reason = CursorHooksError['reason'];

/** Which specific kind a refusal carries besides ConflictError: exactly one of these. */
export type Kind = 'absence' | 'unsupported' | 'conflict';

export const SHELL = LinuxUserShell32212;

/** The fixed spec of the brief: a space in the executable, an apostrophe in the selector. */
export const SPEC: HookSpec = Object.freeze({
  executable: '/opt/agent bin/agent',
  selector: "/home/u/it's/binding.json",
});

/** A second valid spec, for Update and mismatch cases. */
export const OTHER_SPEC: HookSpec = Object.freeze({
  executable: '/opt/agent bin/agent-2',
  selector: "/home/u/it's/other binding.json",
});

/**
 * The POSIX single-quote rendering of the five stop tokens, written out here independently of
 * contracts/, so a rendering change in the library is caught by comparison.
 */
export function posixCommand(spec: HookSpec): string {
  const quote = (token: string) => `'${token.replaceAll("'", `'"'"'`)}'`;
  return [spec.executable, 'cursor-event', 'stop', '--binding', spec.selector].map(quote).join(' ');
}

export const COMMAND = posixCommand(SPEC);
export const OTHER_COMMAND = posixCommand(OTHER_SPEC);

export interface EntryValue {
  readonly type: 'command';
  readonly command: string;
  readonly timeout: 5;
  readonly failClosed: false;
}

/** The owned native entry, exactly four members in the SPEC §1 order. */
export function entryOf(command: string = COMMAND): EntryValue {
  return { type: 'command', command, timeout: 5, failClosed: false };
}

export const ENTRY = entryOf();
/** The owned entry as compact JSON text, for splicing into hand-written documents. */
export const ENTRY_TEXT = JSON.stringify(ENTRY);

/** `JSON.stringify(value, null, indent)` plus `trailing`, as bytes (default: the new-file form). */
export function bytes(value: unknown, indent: number | string = 2, trailing = '\n'): Uint8Array {
  return utf8(`${JSON.stringify(value, null, indent)}${trailing}`);
}

/** The exact bytes of a new file for `value` (SPEC §4). */
export function newFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Request fields that make Install, Update and Repair acceptable apart from the document. */
export const WRITE = { specs: [SPEC], shell: SHELL, executableVerified: true } as const;

/** A request object; absent keys stay absent (exactOptionalPropertyTypes). */
export function req(
  operation: string,
  document: Uint8Array | null | undefined,
  extra: Partial<Record<'specs' | 'previous' | 'shell' | 'executableVerified', unknown>> = {},
): PlanRequest {
  const request: Record<string, unknown> = { operation, ...extra };
  if (document !== undefined) request.document = document;
  return request as unknown as PlanRequest;
}

export const installReq = (document: Uint8Array | null | undefined, previous?: unknown) =>
  req(Operation.Install, document, previous === undefined ? WRITE : { ...WRITE, previous });
export const updateReq = (document: Uint8Array, previous: unknown, spec: HookSpec = OTHER_SPEC) =>
  req(Operation.Update, document, { ...WRITE, specs: [spec], previous });
export const removeReq = (document: Uint8Array | null | undefined, previous: unknown) =>
  req(Operation.Remove, document, { previous });
export const repairReq = (document: Uint8Array | null | undefined, previous: unknown) =>
  req(Operation.Repair, document, { previous, executableVerified: true });

/** A successful result: no error, a Uint8Array, and `conflict` false. Returns it for chaining. */
export function expectOk(result: PlanResult, label?: string): PlanResult {
  expect(result.error, label).toBeUndefined();
  expect(result.conflict, label).toBe(false);
  expect(result.desired, label).toBeInstanceOf(Uint8Array);
  return result;
}

/** A successful result that must carry a receipt. */
export function receiptOf(result: PlanResult, label?: string): Receipt {
  expectOk(result, label);
  const { receipt } = result;
  if (receipt === undefined) throw new Error(`${label ?? 'result'}: expected a receipt`);
  return receipt;
}

export interface Installed {
  readonly document: Uint8Array;
  readonly receipt: Receipt;
}

/** Installs SPEC (or `spec`) into `doc` (a value rendered with indent 2, or raw bytes). */
export function installed(doc: unknown, spec: HookSpec = SPEC): Installed {
  const input = doc instanceof Uint8Array ? doc : bytes(doc);
  const result = plan(req(Operation.Install, input, { ...WRITE, specs: [spec] }));
  const receipt = receiptOf(result, 'install');
  expect(result.noOp).toBe(false);
  return { document: result.desired, receipt };
}

/** Asserts an error is a ConflictError refusal with exactly `reason` and exactly `kind`. */
export function expectError(error: unknown, reason: Reason, kind: Kind, label?: string): void {
  expect(error, label).toBeInstanceOf(CursorHooksError);
  expect(errorIs(error, ConflictError), `${label}: errorIs ConflictError`).toBe(true);
  const actual = error instanceof CursorHooksError ? error.reason : undefined;
  expect(actual, `${label}: reason`).toBe(reason);
  expect(errorIs(error, AbsenceUnprovenError), `${label}: AbsenceUnproven`).toBe(
    kind === 'absence',
  );
  expect(errorIs(error, UnsupportedError), `${label}: Unsupported`).toBe(kind === 'unsupported');
  expect(error instanceof Error ? error.message : undefined, `${label}: message`).toBe(
    REASON_MESSAGES[reason],
  );
}

/**
 * Asserts a refusal: `conflict`, the exact reason and kind, no receipt, and the input bytes
 * handed back (empty for an absent file) in memory not shared with the input.
 */
export function expectRefused(
  result: PlanResult,
  reason: Reason,
  kind: Kind,
  input: Uint8Array | null | undefined,
  label?: string,
): void {
  expect(result.conflict, `${label}: conflict`).toBe(true);
  expectError(result.error, reason, kind, label);
  expect(result.receipt, `${label}: receipt`).toBeUndefined();
  expect(result.noOp, `${label}: noOp`).toBe(true);
  expect(result.desired, `${label}: desired`).toBeInstanceOf(Uint8Array);
  expectBytes(result.desired, input ?? new Uint8Array(0), `${label}: desired bytes`);
  if (input != null && input.length <= SPEC_MAX_BYTES && input.length > 0) {
    expect(result.desired.buffer, `${label}: shared memory`).not.toBe(input.buffer);
  }
}

/** Byte equality: a readable diff for small arrays, a fast comparison for large ones. */
export function expectBytes(actual: Uint8Array, expected: Uint8Array, label?: string): void {
  if (actual.length < 65_536 && expected.length < 65_536) {
    expect([...actual], label).toEqual([...expected]);
    return;
  }
  expect(actual.length, label).toBe(expected.length);
  const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length);
  expect(view(actual).equals(view(expected)), label).toBe(true);
}

/** Plans `request` and asserts it is refused with `reason` and `kind`. */
export function refused(request: PlanRequest, reason: Reason, kind: Kind, label?: string): void {
  expectRefused(plan(request), reason, kind, request.document, label);
}

/** Asserts verifyOwned refuses with `reason` and `kind`. */
export function expectVerifyRefused(
  document: Uint8Array,
  receipt: unknown,
  reason: Reason,
  kind: Kind,
): void {
  const error = thrownBy(() => verifyOwned(document, receipt as ReceiptJSON));
  expect(error, 'verifyOwned must throw').toBeDefined();
  expectError(error, reason, kind, 'verifyOwned');
}

/**
 * The receipt-taking operations with otherwise acceptable requests: Install with the receipt,
 * Update to OTHER_SPEC, Remove and Repair.
 */
export function ownerRequests(
  document: Uint8Array | null | undefined,
  previous: unknown,
): readonly (readonly [string, PlanRequest])[] {
  return [
    ['install+receipt', installReq(document, previous)],
    [
      'update',
      req(Operation.Update, document, { ...WRITE, specs: [OTHER_SPEC], previous } as const),
    ],
    ['remove', removeReq(document, previous)],
    ['repair', repairReq(document, previous)],
  ];
}

/** Every receipt-taking operation and verifyOwned refuse `document` with `reason`/`kind`. */
export function expectOwnerRefused(
  document: Uint8Array,
  previous: unknown,
  reason: Reason,
  kind: Kind,
  options: { readonly verify?: boolean; readonly skip?: readonly string[] } = {},
): void {
  for (const [name, request] of ownerRequests(document, previous)) {
    if (options.skip?.includes(name)) continue;
    refused(request, reason, kind, name);
  }
  if (options.verify !== false) expectVerifyRefused(document, previous, reason, kind);
}

/** Replaces the one occurrence of `search` in `source`; fails loudly if it is not exactly one. */
export function replaceOnce(source: string, search: string, replacement: string): string {
  const first = source.indexOf(search);
  if (first < 0 || source.indexOf(search, first + 1) >= 0) {
    throw new Error(`expected exactly one occurrence of ${JSON.stringify(search)}`);
  }
  return source.slice(0, first) + replacement + source.slice(first + search.length);
}

/** A document text (compact) whose hooks.stop holds `stopEntries`, with extra `hooks` events. */
export function docText(stopEntries: readonly string[], otherEvents = '', rootExtra = ''): string {
  const events = `${otherEvents}${otherEvents === '' ? '' : ','}"stop":[${stopEntries.join(',')}]`;
  return `{"version":1,${rootExtra}${rootExtra === '' ? '' : ','}"hooks":{${events}}}`;
}
