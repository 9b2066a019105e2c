// A relative --executable or --selector is a usage error (exit 2) like a relative --hooks-file,
// judged on the platform of the shell contract, not the host's: nothing is written either way.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { files, home, readHooks, writeHooks } from './file-support.js';
import { cli, expectUsageError, SHELL } from './support.js';

const WINDOWS = 'cursor-windows-cli-2026.10.01-powershell-stop';

function run(command: string, executable: string, selector: string, shell: string) {
  const where = home();
  writeHooks(where);
  const given = ['--executable', executable, '--selector', selector, '--shell', shell];
  return { where, outcome: cli([command, ...files(where), ...given, '--json']) };
}

describe('a spec path relative on the contract platform', () => {
  // Red before: exit 1, executable-unverified, its cause in the path-check list.
  it.each(['install', 'update', 'repair', 'status'])(
    '%s with a relative POSIX --executable is option-path-relative, exit 2, and writes nothing',
    async (command) => {
      const { where, outcome } = run(command, 'bin/host', home().spec.selector, SHELL);
      expectUsageError(await outcome, 'option-path-relative', { option: '--executable' });
      expect(readHooks(where)).not.toContain('bin/host');
      expect(existsSync(where.ledger)).toBe(false);
    },
  );

  // Red before: exit 1, executable-unverified.
  it('a relative --selector is refused the same way', async () => {
    const { outcome } = run('install', home().spec.executable, 'stop.json', SHELL);
    expectUsageError(await outcome, 'option-path-relative', { option: '--selector' });
  });

  // Red before: exit 1; red if "absolute" follows the host (POSIX) instead of the contract.
  it('a Windows contract: a relative .exe path is refused, a drive path is absolute even on this POSIX host', async () => {
    const relative = run('install', 'bin\\host.exe', 'C:\\hooks\\stop.json', WINDOWS);
    expectUsageError(await relative.outcome, 'option-path-relative', { option: '--executable' });
    const absolute = await run(
      'install',
      'C:\\Program Files\\x.exe',
      'C:\\hooks\\stop.json',
      WINDOWS,
    ).outcome;
    // Not a usage error: the host cannot measure a Windows path here, so the checks refuse it.
    expect(absolute.exitCode).toBe(1);
    expect(JSON.parse(absolute.stderr).error.reason).toBe('executable-unverified');
  });

  // Red before: exit 1, executable-unverified.
  it('a POSIX contract: a Windows drive path is relative for it, whatever the host', async () => {
    const { outcome } = run('install', 'C:\\x.exe', home().spec.selector, SHELL);
    expectUsageError(await outcome, 'option-path-relative', { option: '--executable' });
  });
});
