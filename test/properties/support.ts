// Shared helpers for the property tests. They use only the public barrel, so these files test
// the package as a host sees it.

import fc from 'fast-check';
import {
  DarwinUserShell20260918,
  LinuxUserShell32212,
  renderArgv,
  WindowsPowerShellStop20261001,
} from '../../src/index.js';

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A short printable description of bytes for failure messages. */
export function show(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.subarray(0, 400)).toString('latin1');
  return JSON.stringify(bytes.length > 400 ? `${text}…(${bytes.length} bytes)` : text);
}

/** The owned entry exactly as SPEC §1 writes it, rendered through the public renderArgv. */
export function ownedEntry(shell: string, executable: string, selector: string) {
  return {
    type: 'command',
    command: renderArgv(shell, [executable, 'cursor-event', 'stop', '--binding', selector]),
    timeout: 5,
    failClosed: false,
  } as const;
}

export const POSIX_SHELLS = [LinuxUserShell32212, DarwinUserShell20260918] as const;
export const BUILT_IN_SHELLS = [...POSIX_SHELLS, WindowsPowerShellStop20261001] as const;

// Path characters that stress quoting and JSON escaping but are inside the POSIX contract:
// apostrophes, double quotes, backslashes, spaces, globs, C0 controls other than NUL/CR/LF,
// U+2028, composed and decomposed letters, astral characters.
const POSIX_SEGMENT_CHARS = [
  'a',
  'b',
  'Z',
  '0',
  '-',
  '_',
  '.',
  ' ',
  "'",
  '"',
  '\\',
  '*',
  '?',
  '!',
  '#',
  '~',
  ';',
  '&',
  '|',
  '<',
  '(',
  '{',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u2028',
  'é',
  'e\u0301',
  '中',
  '😀',
  '\u00a0',
];

const segmentArb = fc
  .array(fc.constantFrom(...POSIX_SEGMENT_CHARS), { minLength: 1, maxLength: 6 })
  .map((chars) => chars.join(''))
  .filter((segment) => segment !== '.' && segment !== '..');

/** Canonical absolute POSIX paths accepted by the Linux and Darwin contracts. */
export const posixPathArb = fc
  .array(segmentArb, { minLength: 1, maxLength: 4 })
  .map((segments) => `/${segments.join('/')}`);
