// The POSIX shells on this machine that the shell suites run commands under, and the check that
// every shell CI requires (CURSORHOOKS_REQUIRED_SHELLS) was found, shared so no suite can skip a
// required shell quietly.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/** A shell to run a command under: `file ...args -c <command>`. */
export interface Shell {
  /** The name CURSORHOOKS_REQUIRED_SHELLS uses for it. */
  readonly name: string;
  /** How test titles show it. */
  readonly label: string;
  readonly file: string;
  readonly args: readonly string[];
}

interface Candidate {
  readonly name: string;
  readonly label: string;
  readonly program: string;
  readonly args: readonly string[];
}

// `sh` is /bin/sh itself; every other candidate is searched for by program name.
const CANDIDATES: readonly Candidate[] = [
  { name: 'dash', label: 'dash', program: 'dash', args: [] },
  { name: 'bash', label: 'bash', program: 'bash', args: [] },
  { name: 'bash', label: 'bash --posix', program: 'bash', args: ['--posix'] },
  { name: 'zsh', label: 'zsh', program: 'zsh', args: [] },
  { name: 'mksh', label: 'mksh', program: 'mksh', args: [] },
  { name: 'lksh', label: 'lksh', program: 'lksh', args: [] },
  { name: 'busybox', label: 'busybox sh', program: 'busybox', args: ['sh'] },
  { name: 'yash', label: 'yash', program: 'yash', args: [] },
  { name: 'posh', label: 'posh', program: 'posh', args: [] },
  { name: 'ksh', label: 'ksh', program: 'ksh', args: [] },
  { name: 'ksh93', label: 'ksh93', program: 'ksh93', args: [] },
  { name: 'oksh', label: 'oksh', program: 'oksh', args: [] },
];
const KNOWN_NAMES: ReadonlySet<string> = new Set(['sh', ...CANDIDATES.map((c) => c.name)]);
const SEARCH_DIRS = ['/bin', '/usr/bin', '/usr/local/bin'];

/** A regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function findProgram(program: string): string | undefined {
  return SEARCH_DIRS.map((dir) => path.join(dir, program)).find(isExecutableFile);
}

function discoverShells(): readonly Shell[] {
  const shells: Shell[] = [];
  if (isExecutableFile('/bin/sh'))
    shells.push({ name: 'sh', label: '/bin/sh', file: '/bin/sh', args: [] });
  for (const candidate of CANDIDATES) {
    const file = findProgram(candidate.program);
    if (file !== undefined) {
      shells.push({ name: candidate.name, label: candidate.label, file, args: candidate.args });
    }
  }
  return shells;
}

export const WINDOWS = process.platform === 'win32';

/** Every POSIX shell found on this machine, /bin/sh first; none on Windows. */
export const POSIX_SHELLS: readonly Shell[] = WINDOWS ? [] : discoverShells();

/**
 * /bin/sh always; CI adds the rest through CURSORHOOKS_REQUIRED_SHELLS. `pwsh` there is for the
 * PowerShell suites (test/support/pwsh.ts), not a POSIX shell.
 */
export function requiredShellNames(): readonly string[] {
  const listed = (process.env.CURSORHOOKS_REQUIRED_SHELLS ?? '')
    .split(/\s+/)
    .filter((n) => n !== '' && n !== 'pwsh');
  return [...new Set(['sh', ...listed])];
}

/** Fails when a required shell is unknown here or missing on this machine. */
export function expectRequiredShellsFound(): void {
  const required = requiredShellNames();
  expect(
    required.filter((name) => !KNOWN_NAMES.has(name)),
    'CURSORHOOKS_REQUIRED_SHELLS names a shell the suites do not know',
  ).toEqual([]);
  const found = new Set(POSIX_SHELLS.map((shell) => shell.name));
  expect(
    required.filter((name) => !found.has(name)),
    'required shells missing on this machine',
  ).toEqual([]);
}
