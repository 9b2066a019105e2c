// Helpers every test folder shares: property run counts, the SPEC limits and refusal kinds
// written out as an oracle, strict UTF-8, byte building and capturing what a call throws.
// Nothing here reads src/ except the reason type, so a changed constant or kind there is caught.

import type { ErrorReason } from '../../src/errors/reasons.js';
import type { QualificationEvidence } from '../../src/shell/contract.js';

// ---------------------------------------------------------------------------------------------
// Property runs

/** Property run count: small by default so `npm test` stays quick, raised by the environment. */
export function fcRuns(defaultRuns: number): number {
  const fromEnv = Number.parseInt(process.env.CURSORHOOKS_FC_RUNS ?? '', 10);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : defaultRuns;
}

/** A test timeout that grows with the run count, so raising CURSORHOOKS_FC_RUNS cannot time out. */
export function propertyTimeout(runs: number, msPerRun = 25): number {
  return Math.max(60_000, runs * msPerRun);
}

// ---------------------------------------------------------------------------------------------
// The SPEC as an oracle, written out here independently of src/limits.ts and the throw sites.

// The SPEC §3 limits.
export const SPEC_MAX_BYTES = 4_194_304;
export const SPEC_MAX_DEPTH = 64;
export const SPEC_MAX_NODES = 65_536;

/** The reasons a document load may refuse with; anything else is a leak from another layer. */
export const DOCUMENT_REASONS: readonly ErrorReason[] = [
  'document-too-large',
  'document-too-deep',
  'document-too-many-nodes',
  'document-not-utf8',
  'document-bom',
  'json-syntax',
  'json-duplicate-key',
];

/**
 * Reasons SPEC §2 classifies as Unsupported (besides the `path-` and `argv-` families): the
 * document reasons, a document shape this version does not understand, an unknown shell.
 */
export const UNSUPPORTED_REASONS: ReadonlySet<ErrorReason> = new Set<ErrorReason>([
  ...DOCUMENT_REASONS,
  'root-not-object',
  'version-missing',
  'version-unsupported',
  'hooks-not-object',
  'event-not-array',
  'shell-unsupported',
]);

/** Exactly the reasons SPEC §2 classifies as AbsenceUnproven. */
export const ABSENCE_REASONS: ReadonlySet<ErrorReason> = new Set<ErrorReason>([
  'owner-absent',
  'remainder-drift',
]);

// ---------------------------------------------------------------------------------------------
// Bytes and text

const encoder = new TextEncoder();
// ignoreBOM keeps a leading BOM in the text, so JSON.parse refuses it instead of it vanishing.
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Strict UTF-8 decode; throws on any invalid sequence and keeps a leading BOM. */
export function decodeStrict(bytes: Uint8Array): string {
  return strictDecoder.decode(bytes);
}

/** The concatenation of `parts`: strings as UTF-8, byte arrays and byte lists as they are. */
export function bytesOf(
  ...parts: readonly (string | Uint8Array | readonly number[])[]
): Uint8Array {
  const chunks = parts.map((part) =>
    typeof part === 'string'
      ? utf8(part)
      : part instanceof Uint8Array
        ? part
        : Uint8Array.from(part),
  );
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Throws

/**
 * Runs `fn`; returns what it threw, or `undefined` if it returned. Callers assert on the result
 * (`toBeInstanceOf`, `toBeDefined`), so a call that does not throw fails there.
 */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Test doubles

/** Evidence for contracts that exist only in tests: it claims nothing. */
export const TEST_EVIDENCE: QualificationEvidence = {
  client: 'test client',
  version: '0',
  platform: 'test',
  arch: null,
  date: null,
  run: null,
  observed: [],
  notObserved: [],
  artifacts: [],
};
