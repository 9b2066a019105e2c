// The entry simulate-stop fires: the one the ledger receipts, found intact in the hook file, and
// how Cursor launches it on this platform. Nothing else in the file is ever run.
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { OwnedEntryValue } from '../../domain/owned-entry.js';
import { ConflictError, CursorHooksError, UnsupportedError } from '../../errors/errors.js';
import type { HookPlanner } from '../../planner/hook-planner.js';
import { grammarFamily } from '../../shell/families.js';
import { SIMULATED_ENV, type SimulationMark } from '../../shell/heartbeat-record.js';
import { stopArgv } from '../../shell/stop-invocation.js';
import { aboutFile } from '../errors.js';
import { type HeartbeatRecord, readLedger } from '../ledger/ledger.js';
import type { FsSeam } from '../write/fs-seam.js';
import { readFileSnapshot, resolveTarget } from '../write/read.js';
import type { EntryLaunch } from './run-entry.js';

/** What simulate-stop asks of a planner: the one that knows the receipt's contract. */
export type SimulatePlanner = Pick<HookPlanner, 'verifyOwned' | 'renderArgv' | 'contracts'>;

/** The owned entry's `timeout`, in seconds: Cursor kills the hook after it. */
const ENTRY_TIMEOUT_SECONDS: OwnedEntryValue['timeout'] = 5;
export const ENTRY_TIMEOUT_MS = ENTRY_TIMEOUT_SECONDS * 1000;

export interface InstalledEntry {
  readonly hooksFile: string;
  readonly realPath: string;
  /** The entry's command, exactly as it stands in the hook file. */
  readonly command: string;
  readonly shell: string;
  /** The contract's grammar family; undefined for a host plugin that names none. */
  readonly family: string | undefined;
  /** How Cursor runs it: `windows` for the PowerShell family, else `posix`. */
  readonly platform: 'posix' | 'windows';
  /** The version the contract was qualified on: the synthetic payload's default. */
  readonly qualifiedVersion: string;
  /**
   * The directory the hook file is found in (`~/.cursor`), where Cursor runs user hooks: the
   * link's own directory when the hook file is a symlink (a dotfiles checkout), not the target's.
   */
  readonly cwd: string;
  /** The heartbeat file install recorded for this entry; null when none was. */
  readonly heartbeat: HeartbeatRecord | null;
}

/**
 * Refuses `simulate-disabled` while the user's "off" holds, `simulate-not-owned` unless the ledger's receipt verifies against the hook file, and
 * `simulate-contract-unregistered` when the receipt's contract is not registered.
 */
export async function installedEntry(
  hooksFile: string,
  ledger: string,
  planner: SimulatePlanner,
  fs: FsSeam,
): Promise<InstalledEntry> {
  const realPath = await resolveTarget(hooksFile, fs);
  const { records } = await readLedger(ledger, { fs }).catch((err: unknown) => {
    throw aboutFile(err, 'ledger', ledger);
  });
  const record = records.get(realPath);
  const receipt = record?.receipt ?? null;
  // The user's "off": there is nothing to fire until enable, and that is no fault of the file.
  if (receipt === null && (record?.disabled ?? null) !== null) {
    throw new ConflictError('simulate-disabled');
  }
  if (receipt === null) throw new ConflictError('simulate-not-owned');
  // Without the receipt's contract nothing can be verified: say so, not "not owned".
  const contract = planner.contracts().find((known) => known.id === receipt.shell);
  if (contract === undefined) throw new UnsupportedError('simulate-contract-unregistered');
  const { bytes } = await readFileSnapshot(hooksFile, fs, { role: 'hook-file' });
  try {
    planner.verifyOwned(bytes, receipt);
  } catch (err) {
    if (!(err instanceof CursorHooksError)) throw err;
    throw new ConflictError('simulate-not-owned', { cause: err });
  }
  const { spec, shell } = receipt;
  const { family } = contract;
  return {
    hooksFile,
    realPath,
    command: planner.renderArgv(shell, stopArgv(spec.executable, spec.selector)),
    shell,
    family,
    platform: grammarFamily(family)?.platform === 'windows' ? 'windows' : 'posix',
    qualifiedVersion: String(contract.evidence.version),
    cwd: dirname(resolve(hooksFile)),
    heartbeat: record?.heartbeat ?? null,
  };
}

/**
 * The minimal environment Cursor gives a hook: PATH, the home, and its version; and the mark
 * Cursor never sets, so the observer records a simulated stop as one (or a matrix case nowhere).
 */
export function hookEnvironment(
  cursorVersion: string,
  run: SimulationMark,
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: homedir(),
    CURSOR_VERSION: cursorVersion,
    [SIMULATED_ENV]: run,
  };
  // pwsh and Windows programs do not start without these.
  for (const name of ['SystemRoot', 'USERPROFILE', 'TEMP', 'TMP']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** POSIX: `/bin/sh -c <command>`, as Cursor's Linux and macOS clients run a hook. */
export function posixLaunch(
  entry: InstalledEntry,
  cursorVersion: string,
  run: SimulationMark,
): EntryLaunch {
  return {
    file: '/bin/sh',
    args: ['-c', entry.command],
    cwd: entry.cwd,
    env: hookEnvironment(cursorVersion, run),
  };
}

/**
 * Windows family: pwsh running the command in the wrapper Cursor's Windows client is reported
 * to use, the payload read from a file rather than piped.
 */
export function windowsLaunch(
  entry: InstalledEntry,
  cursorVersion: string,
  pwsh: string,
  payloadFile: string,
  run: SimulationMark,
): EntryLaunch {
  const literal = `'${payloadFile.replaceAll("'", "''")}'`;
  const wrapper = `Get-Content -LiteralPath ${literal} -Raw | & { $input | ${entry.command} }`;
  return {
    file: pwsh,
    args: ['-NoProfile', '-NonInteractive', '-Command', wrapper],
    cwd: entry.cwd,
    env: hookEnvironment(cursorVersion, run),
  };
}
