// Where a qualification lives, path by path for both platforms, and the probe directory's names
// and the extra tokens, through a fresh import: they are module constants.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { family } from './support.js';

const POSIX = family('posix-single-quote');
const WINDOWS = family('powershell-stop');

const POSIX_DIRECTORY = `probe it's "q" é 中 😀 ;&|<>(){}[]*? #!~ \\x`;
const WINDOWS_DIRECTORY = "probe it's é 中 😀 ;&(){} #!~ ,+=@ %x%";
const POSIX_TOKENS = [
  '',
  "it's",
  ' two  spaces ',
  '"double" \\back\\slash\\',
  '~ # !',
  '*?[a]',
  ';|&<>(){}',
  '\t',
  'é 中 😀 cafe\u0301',
  '-n',
  '%s',
];

describe('probeLayout, through a fresh import', () => {
  async function fresh() {
    vi.resetModules();
    return import('../../../src/node/qualify/layout.js');
  }

  it.each([
    ['posix', POSIX, POSIX_DIRECTORY, POSIX_TOKENS],
    ['windows', WINDOWS, WINDOWS_DIRECTORY, []],
  ] as const)(
    '%s: every path under the resolved state directory, the names and tokens as reviewed (red: a path, a name or a token changed)',
    async (platform, fam, directory, tokens) => {
      const { probeLayout, stateFileOf, PROBE_DIRECTORY } = await fresh();
      expect(PROBE_DIRECTORY[platform]).toBe(directory);
      const root = path.resolve('relative state');
      const probeDir = path.join(root, directory);
      expect(probeLayout('relative state', fam)).toStrictEqual({
        stateDir: root,
        stateFile: path.join(root, 'qualification.json'),
        startFile: path.join(root, 'hooks-start.json'),
        ledger: path.join(root, 'probe-ledger.json'),
        lockTarget: path.join(root, 'qualification'),
        probeDir,
        scriptRecorder: path.join(probeDir, 'record stop'),
        binding: path.join(probeDir, 'binding.json'),
        recordings: path.join(probeDir, 'recordings'),
        extraTokens: tokens,
      });
      expect(stateFileOf('relative state')).toBe(path.join(root, 'qualification.json'));
    },
  );
});
