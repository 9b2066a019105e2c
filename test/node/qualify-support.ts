// Shared set-up for the probe's tests: a temporary home with a user's own hooks.json, a state
// directory beside it, and the simulated Cursor firing stop under /bin/sh unless told otherwise.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { POSIX_SHELLS, type Shell } from '../support/shells.js';
import { type FiredHook, type FireOptions, fireStop } from '../support/simulated-cursor.js';
import { tempDir } from './support.js';

// The user's own file: tabs, a comment-free layout of their own and an entry of theirs.
export const USER_HOOKS =
  '{\n\t"version": 1,\n\t"hooks": {\n\t\t"stop": [ { "command": "echo done" } ],\n\t\t"afterFileEdit": [{"command":"fmt"}]\n\t}\n}\n';

export interface ProbeHome {
  readonly home: string;
  readonly hooksFile: string;
  readonly stateDir: string;
  /** Where finish writes the record. */
  readonly out: string;
  readonly hooks: () => string;
}

export function probeHome(hooks: string = USER_HOOKS): ProbeHome {
  const home = tempDir();
  const hooksFile = join(home, '.cursor', 'hooks.json');
  mkdirSync(join(home, '.cursor'));
  writeFileSync(hooksFile, hooks);
  return {
    home,
    hooksFile,
    stateDir: join(home, 'host state'),
    out: join(home, 'record.json'),
    hooks: () => readFileSync(hooksFile, 'utf8'),
  };
}

export const SH: Shell = POSIX_SHELLS[0] as Shell;

/** Stop fired by the simulated Cursor under /bin/sh (or `shell`), every hook exiting 0. */
export async function fire(
  where: ProbeHome,
  options: Omit<Partial<FireOptions>, 'hooksFile'> & { shell?: Shell } = {},
): Promise<readonly FiredHook[]> {
  const { shell = SH, ...rest } = options;
  return fireStop({ hooksFile: where.hooksFile, launcher: { kind: 'posix', shell }, ...rest });
}

/** What the state directory holds once a qualification is over: nothing of the probe's. */
export function expectStateCleared(where: ProbeHome): void {
  expect(readdirSync(where.stateDir)).toEqual([]);
}
