// A QualificationRecord is what a probe recorded when the user's own Cursor fired a stop hook:
// the argv it meant, the command the family rendered for it, and what the recorder saw. It
// becomes a contract only through qualifiedContract, which validates it strictly: a record is
// trusted host state, but a hand edit must never widen a grammar or claim another build.
import { UnsupportedError } from '../errors/errors.js';
import type { ErrorReason } from '../errors/reasons.js';
import type {
  PathRole,
  QualificationEvidence,
  QualifyingArtifact,
  ShellContract,
} from './contract.js';
import { freezeEvidence } from './evidence.js';
import { type GrammarFamily, type GrammarFamilyId, grammarFamily } from './families.js';
import {
  DarwinUserShell20260918,
  LinuxUserShell32212,
  WindowsPowerShellStop20261001,
  WindowsUnqualified,
} from './ids.js';
import { snapshotArgv } from './render.js';

export const QUALIFICATION_RECORD_VERSION = 1;

/** What the recorder saw when Cursor ran the probe's command. */
export interface RecordedInvocation {
  /** The arguments the recorder received, byte-exact, its own path first. */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** From the stop payload on stdin; null when the payload did not hold it. */
  readonly hookEventName: string | null;
  readonly cursorVersion: string | null;
  readonly status: string | null;
  /** The payload's top-level field names, sorted; never their values. */
  readonly payloadFields: readonly string[];
  /** The CURSOR_VERSION environment variable; null when unset. */
  readonly cursorVersionEnv: string | null;
}

export interface QualificationRecord {
  readonly version: 1;
  /** The contract id the record defines: well-formed, and never a built-in id. */
  readonly id: string;
  readonly family: GrammarFamilyId;
  readonly evidence: QualificationEvidence;
  readonly probe: {
    /** The argv the probe meant Cursor to run. */
    readonly argv: readonly string[];
    /** The family's rendering of that argv, as installed. */
    readonly command: string;
    readonly recorded: RecordedInvocation;
  };
}

const BUILTIN_IDS: readonly string[] = [
  LinuxUserShell32212,
  DarwinUserShell20260918,
  WindowsPowerShellStop20261001,
  WindowsUnqualified,
];
// Lower-case words joined by single dots or dashes, like the built-in ids.
const ID = /^[a-z0-9]+(?:[.-][a-z0-9]+)*$/;
const MAX_ID_LENGTH = 128;
const MAX_FACTS = 64;
const MAX_TEXT = 1024;
const SHA256 = /^[0-9a-f]{64}$/;

/** A validated record's frozen contract: its family's grammar with the record's evidence. */
export function qualifiedContract(record: unknown): ShellContract {
  const read = readRecord(record);
  const family = grammarFamily(read.family) as GrammarFamily;
  return Object.freeze({
    id: read.id,
    family: family.id,
    evidence: read.evidence,
    assertCanonicalPath: (path: string, role: PathRole) => family.assertCanonicalPath(path, role),
    render: (argv: readonly string[]) => family.render(argv),
  });
}

/**
 * Reads a record once into plain frozen values and checks it; throws UnsupportedError with a
 * `record-…` reason. Getters, Proxies and extra keys are refused as malformed.
 */
export function readRecord(value: unknown): QualificationRecord {
  let read: QualificationRecord;
  try {
    read = plainRecord(value);
  } catch (err) {
    if (err instanceof UnsupportedError) throw err;
    throw new UnsupportedError('record-malformed');
  }
  const family = grammarFamily(read.family);
  if (family === undefined) throw new UnsupportedError('record-family-unknown');
  if (BUILTIN_IDS.includes(read.id)) throw new UnsupportedError('record-id-builtin');
  if (read.id.length > MAX_ID_LENGTH || !ID.test(read.id)) {
    throw new UnsupportedError('record-id-malformed');
  }
  const { argv, command, recorded } = read.probe;
  if (family.render(argv) !== command) throw new UnsupportedError('record-command-mismatch');
  if (!sameTokens(recorded.argv, argv)) throw new UnsupportedError('record-argv-mismatch');
  if (recorded.hookEventName !== 'stop') throw new UnsupportedError('record-event-not-stop');
  // What Cursor reported, on stdin or in the environment; a typed-in version never counts.
  const reported = [recorded.cursorVersion, recorded.cursorVersionEnv].filter((v) => v !== null);
  if (reported.length === 0 || reported.some((version) => version !== read.evidence.version)) {
    throw new UnsupportedError('record-version-mismatch');
  }
  return read;
}

function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((token, i) => token === b[i]);
}

function plainRecord(value: unknown): QualificationRecord {
  const record = exact(value, ['version', 'id', 'family', 'evidence', 'probe']);
  if (record.version !== QUALIFICATION_RECORD_VERSION) {
    throw new UnsupportedError(
      typeof record.version === 'number' ? 'record-version-unsupported' : 'record-malformed',
    );
  }
  const probe = exact(record.probe, ['argv', 'command', 'recorded']);
  const recorded = exact(probe.recorded, [
    'argv',
    'cwd',
    'hookEventName',
    'cursorVersion',
    'status',
    'payloadFields',
    'cursorVersionEnv',
  ]);
  return Object.freeze({
    version: QUALIFICATION_RECORD_VERSION,
    id: text(record.id),
    family: text(record.family) as GrammarFamilyId,
    evidence: evidenceOf(record.evidence),
    probe: Object.freeze({
      argv: snapshotArgv(probe.argv),
      command: text(probe.command, Number.POSITIVE_INFINITY),
      recorded: Object.freeze({
        argv: snapshotArgv(recorded.argv),
        cwd: text(recorded.cwd, Number.POSITIVE_INFINITY),
        hookEventName: textOrNull(recorded.hookEventName),
        cursorVersion: textOrNull(recorded.cursorVersion),
        status: textOrNull(recorded.status),
        payloadFields: texts(recorded.payloadFields),
        cursorVersionEnv: textOrNull(recorded.cursorVersionEnv),
      }),
    }),
  });
}

function evidenceOf(value: unknown): QualificationEvidence {
  const evidence = exact(value, [
    'client',
    'version',
    'platform',
    'arch',
    'date',
    'run',
    'observed',
    'notObserved',
    'artifacts',
  ]);
  const artifacts = list(evidence.artifacts).map((item): QualifyingArtifact => {
    const artifact = exact(item, ['name', 'sha256']);
    const sha256 = text(artifact.sha256);
    if (!SHA256.test(sha256)) throw new UnsupportedError('record-malformed');
    return { name: text(artifact.name), sha256 };
  });
  return freezeEvidence({
    client: text(evidence.client),
    version: text(evidence.version),
    platform: text(evidence.platform),
    arch: textOrNull(evidence.arch),
    date: textOrNull(evidence.date),
    run: textOrNull(evidence.run),
    observed: texts(evidence.observed),
    notObserved: texts(evidence.notObserved),
    artifacts,
  });
}

/** The object's own keys exactly, each value read once. */
function exact<K extends string>(value: unknown, keys: readonly K[]): Record<K, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed();
  if (Object.getPrototypeOf(value) !== Object.prototype) throw malformed();
  const own = Reflect.ownKeys(value);
  if (own.length !== keys.length || !keys.every((key) => own.includes(key))) throw malformed();
  const read = {} as Record<K, unknown>;
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor)) throw malformed();
    read[key] = descriptor.value;
  }
  return read;
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value) || value.length > MAX_FACTS) throw malformed();
  return Array.from({ length: value.length }, (_, i) => value[i]);
}

function texts(value: unknown): readonly string[] {
  return Object.freeze(list(value).map((item) => text(item)));
}

function text(value: unknown, max = MAX_TEXT): string {
  if (typeof value !== 'string' || value.length > max) throw malformed();
  return value;
}

function textOrNull(value: unknown): string | null {
  return value === null ? null : text(value);
}

function malformed(reason: ErrorReason = 'record-malformed'): UnsupportedError {
  return new UnsupportedError(reason);
}
