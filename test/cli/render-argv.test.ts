import { describe, expect, it } from 'vitest';
import {
  LinuxUserShell32212,
  WindowsPowerShellStop20261001,
  WindowsUnqualified,
} from '../../src/index.js';
import { cli, failure, output } from './support.js';

const WINDOWS_ARGV = [
  'C:\\Program Files\\Agent\\agent.exe',
  'cursor-event',
  'stop',
  '--binding',
  "C:\\Users\\O'Neil\\stop.json",
];

describe('cursorhooks render-argv', () => {
  it('prints the POSIX rendering of the tokens after -- (red: tokens are dropped or re-quoted)', async () => {
    const outcome = await cli(['render-argv', '--shell', LinuxUserShell32212, '--', "it's", '']);
    expect(outcome).toEqual({ exitCode: 0, stdout: `'it'"'"'s' ''\n`, stderr: '' });
  });

  it('accepts --shell=ID and treats --help after -- as a token (red: option parsing eats argv)', async () => {
    const outcome = await cli([
      'render-argv',
      `--shell=${LinuxUserShell32212}`,
      '--',
      '--help',
      '-h',
    ]);
    expect(outcome).toEqual({ exitCode: 0, stdout: `'--help' '-h'\n`, stderr: '' });
  });

  it('prints the PowerShell stop rendering (red: the Windows contract is not reachable)', async () => {
    const outcome = await cli([
      'render-argv',
      '--shell',
      WindowsPowerShellStop20261001,
      '--',
      ...WINDOWS_ARGV,
    ]);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe(
      "& 'C:\\Program Files\\Agent\\agent.exe' 'cursor-event' 'stop' '--binding' 'C:\\Users\\O''Neil\\stop.json'\n",
    );
  });

  it('prints {"command"} with --json (red: machine output is text)', async () => {
    const outcome = await cli(['render-argv', '--json', '--shell', LinuxUserShell32212, '--', 'a']);
    expect(output<unknown>(outcome)).toEqual({ command: "'a'" });
  });

  it.each([
    ['an unknown shell', 'cursor-bogus', ['x'], 'shell-unsupported'],
    ['the unqualified Windows id', WindowsUnqualified, ['x'], 'shell-unsupported'],
    ['a dollar sign', LinuxUserShell32212, ['$HOME'], 'argv-forbidden-character'],
    [
      'a non-stop Windows argv',
      WindowsPowerShellStop20261001,
      ['C:\\a.exe'],
      'argv-shape-unsupported',
    ],
  ])(
    'refuses %s with the error shape and exit 1, as text or JSON (red: an UnsupportedError escapes or exits 0)',
    async (_, shell, tokens, reason) => {
      const json = await cli(['render-argv', '--json', '--shell', shell, '--', ...tokens]);
      expect(failure(json, 1)).toEqual({
        kind: 'unsupported',
        reason,
        message: expect.any(String),
      });
      const text = await cli(['render-argv', '--shell', shell, '--', ...tokens]);
      expect(text.exitCode).toBe(1);
      expect(text.stdout).toBe('');
      expect(text.stderr).toMatch(new RegExp(`^cursorhooks: [^\\n]+ \\[${reason}\\]\\n$`));
    },
  );
});
