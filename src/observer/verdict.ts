// The version a stop is checked against, read from whatever the host holds: a ShellContract, a
// qualification record (as parsed from its file) or the version string itself. A record is
// read here for its evidence.version only, so checking a stop never loads the planner.
import type { ShellContract } from '../shell/contract.js';
import type { QualificationRecord } from '../shell/qualification-record.js';

/** What a stop is checked against: a contract, a record, or the expected version. */
export type ObserverContract = ShellContract | QualificationRecord | string;

// As a record's evidence texts are bounded.
const MAX_VERSION_LENGTH = 1024;

/** The expected version, or null when `contract` names none. */
export function expectedVersion(contract: unknown): string | null {
  try {
    if (typeof contract === 'string') return versionText(contract);
    if (typeof contract !== 'object' || contract === null) return null;
    const held = contract as { version?: unknown; probe?: unknown; evidence?: unknown };
    // A record carries its format version; a contract has none.
    if ('probe' in held && held.version !== 1) return null;
    const evidence = held.evidence as { version?: unknown } | null | undefined;
    return typeof evidence === 'object' && evidence !== null ? versionText(evidence.version) : null;
  } catch {
    // A getter that throws names no version.
    return null;
  }
}

function versionText(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_VERSION_LENGTH
    ? value
    : null;
}
