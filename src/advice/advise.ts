// `adviseHooks`: what Cursor (or Claude Code) will do with one hook source, told by position.
// Pure: the caller reads the file; nothing here reaches the file system or the clock.
import { BUILTIN_CONTRACTS } from '../../contracts/builtin.js';
import { Receipt, type ReceiptJSON } from '../domain/receipt.js';
import { ConflictError } from '../errors/errors.js';
import type { ShellContract } from '../shell/contract.js';
import { type GrammarFamilyId, grammarFamily } from '../shell/families.js';
import { ShellContractRegistry } from '../shell/registry.js';
import { inspectClaudeFile } from './claude-file.js';
import { inspectCursorFile } from './cursor-file.js';
import { compareFindings, type Finding, type HookSource, SOURCES } from './findings.js';
import { finding, type Inspection, type Reading } from './inspection.js';
import { readDocument } from './read-document.js';

export interface AdviceOptions {
  /** Which source the document is (default `user`); `claude-*` are Claude Code settings files. */
  readonly source?: HookSource;
  /** This host's own command, as installed; taken from `receipt` when not given. */
  readonly ownedCommand?: string;
  /** The receipt of this host's entry in the user file. */
  readonly receipt?: Receipt | ReceiptJSON;
  /** Contracts besides the built-in ones that the receipt or `shell` may name. */
  readonly contracts?: readonly ShellContract[];
  /** The grammar family commands are run by; `powershell-stop` checks Windows launching. */
  readonly family?: GrammarFamilyId;
  /** A shell contract id standing for its family (the receipt's, when it has one). */
  readonly shell?: string;
}

const POWERSHELL: GrammarFamilyId = 'powershell-stop';

/**
 * The findings for one hook source, worst first. `document` is its bytes (or text); undefined
 * or absent is a file that does not exist. Findings name places by position only.
 */
export function adviseHooks(
  document?: Uint8Array | string,
  options: AdviceOptions = {},
): Finding[] {
  return inspectHooks(document, readingOf(options)).findings;
}

/** The findings and command sites of one source, for adviseHooks and the cross-source checks. */
export function inspectHooks(
  document: Uint8Array | string | undefined,
  reading: Reading,
): Inspection {
  const { source } = reading;
  // Our entry belongs in the user file; anywhere else a copy of it is a second run.
  const owedHere = source === 'user' && reading.ownedCommand !== undefined;
  if (document === undefined) {
    const findings = owedHere
      ? [finding('owned-missing', 'voids-entry', source, { ours: true })]
      : [];
    return { findings, sites: [] };
  }
  const bytes = bytesOf(document);
  const loaded = readDocument(bytes, source);
  if ('finding' in loaded) return { findings: [loaded.finding], sites: [] };
  const rules = source.startsWith('claude-') ? inspectClaudeFile : inspectCursorFile;
  const inspection = rules(loaded.root, reading);
  if (owedHere && !inspection.sites.some((site) => site.command === reading.ownedCommand)) {
    inspection.findings.push(finding('owned-missing', 'voids-entry', source, { ours: true }));
  }
  inspection.findings.sort(compareFindings);
  return inspection;
}

function bytesOf(document: Uint8Array | string): Uint8Array {
  if (typeof document === 'string') return new TextEncoder().encode(document);
  if (document instanceof Uint8Array) return document;
  throw new ConflictError('document-malformed');
}

/** The options checked and resolved: the source, our command and whether Windows launches. */
export function readingOf(options: AdviceOptions): Reading {
  if (typeof options !== 'object' || options === null) throw invalid();
  const { source = 'user', ownedCommand, receipt, contracts = [], family, shell } = options;
  if (!SOURCES.includes(source)) throw invalid();
  if (ownedCommand !== undefined && typeof ownedCommand !== 'string') throw invalid();
  if (family !== undefined && grammarFamily(family) === undefined) throw invalid();
  if (shell !== undefined && typeof shell !== 'string') throw invalid();
  if (!Array.isArray(contracts)) throw invalid();
  const needsRegistry = receipt !== undefined || shell !== undefined;
  const registry = needsRegistry
    ? new ShellContractRegistry([
        ...BUILTIN_CONTRACTS.map((Contract) => new Contract()),
        ...contracts,
      ])
    : undefined;
  const proven = receipt === undefined ? undefined : Receipt.fromJSON(receipt);
  const command =
    ownedCommand ??
    (proven === undefined
      ? undefined
      : proven.ownedEntry(registry as ShellContractRegistry).command);
  const shellId = shell ?? proven?.shell;
  const shellFamily =
    shellId === undefined ? undefined : (registry as ShellContractRegistry).resolve(shellId).family;
  const windows = family === POWERSHELL || shellFamily === POWERSHELL;
  return { source, ownedCommand: command, windows };
}

function invalid(): ConflictError {
  return new ConflictError('advice-options-invalid');
}
