// Shared set-up for the qualify mutation suites: a probe started in a temporary home (no shell
// runs: the recorder protocol is driven in-process by recordProbeInvocation), the state file read
// back as JSON, and a seam wrapper that sees every call with its arguments.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { finishQualification, startQualification } from '../../../src/node/qualify/probe.js';
import { recordProbeInvocation } from '../../../src/node/qualify/recording.js';
import type { ProbeState } from '../../../src/node/qualify/state.js';
import type { FsSeam } from '../../../src/node/write/fs-seam.js';
import { type GrammarFamily, grammarFamily } from '../../../src/shell/families.js';
import { type ProbeHome, probeHome } from '../qualify-support.js';
import { allChecksPassed, wrapSeam } from '../support.js';

export const POSIX = 'posix-single-quote';
export const VERSION = '3.24.0';

export interface Started extends ProbeHome {
  readonly stateFile: string;
  readonly state: () => ProbeState;
}

/** A probe started (phase waiting) in a fresh home; `hooks` is the user's starting file. */
export async function started(hooks?: string): Promise<Started> {
  const where = probeHome(hooks);
  const outcome = await startQualification({
    stateDir: where.stateDir,
    hooksFile: where.hooksFile,
    family: POSIX,
    checkHostPaths: allChecksPassed,
  });
  expect(outcome.error).toBeUndefined();
  const stateFile = join(where.stateDir, 'qualification.json');
  return {
    ...where,
    stateFile,
    state: () => JSON.parse(readFileSync(stateFile, 'utf8')) as ProbeState,
  };
}

/** One stop as Cursor would run it: the recorder invoked with `argv` (default: the intended). */
export async function recordStop(where: Started, argv?: readonly string[]): Promise<void> {
  const recorded = await recordProbeInvocation({
    argv: argv ?? where.state().argv,
    stdin: `{"hook_event_name":"stop","cursor_version":"${VERSION}"}`,
    cwd: join(where.home, '.cursor'),
    env: { CURSOR_VERSION: VERSION },
  });
  expect(recorded.recorded).toBe(true);
}

/** A record a finished qualification wrote: valid for readRecord. */
export async function aRecord(): Promise<unknown> {
  const where = await started();
  await recordStop(where);
  const finished = await finishQualification({ stateDir: where.stateDir, out: where.out });
  expect(finished.error).toBeUndefined();
  return JSON.parse(readFileSync(where.out, 'utf8'));
}

export interface SeamCall {
  readonly name: keyof FsSeam;
  readonly args: readonly unknown[];
}

/**
 * The real seam, recording every call with its arguments (the first one as the call's path, or
 * for an open file the path it was opened by); `before` may throw to fail a call.
 */
export function recordingSeam(
  before: (
    name: keyof FsSeam,
    path: string | undefined,
    args: readonly unknown[],
  ) => void = () => {},
): { fs: FsSeam; calls: SeamCall[] } {
  const calls: SeamCall[] = [];
  const fs = wrapSeam((name, path, args) => {
    calls.push({ name, args: [path, ...args.slice(1)] });
    before(name, path, args);
  });
  return { fs, calls };
}

/** A grammar family by id; a missing one fails the test file at load. */
export function family(id: string): GrammarFamily {
  const found = grammarFamily(id);
  if (found === undefined) throw new Error(`no family ${id}`);
  return found;
}
