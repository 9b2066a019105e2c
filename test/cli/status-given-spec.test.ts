// status given the spec and shell the host would install prints an install line carrying them,
// so the line runs as printed (the shell's own word splitting, then the CLI).
import { describe, expect, it } from 'vitest';
import { files, home, readHooks, specArgs, writeHooks } from './file-support.js';
import { cli, wordsOf } from './support.js';

describe('status given --executable, --selector and --shell', () => {
  // Red before: the printed install line lacked them and exited 2 (option --executable is required).
  it('prints an install line with them that installs as printed', async () => {
    const where = home();
    writeHooks(where);
    const status = await cli(['status', ...files(where), ...specArgs(where.spec), '--json']);
    const { nextStep } = JSON.parse(status.stdout);
    expect(nextStep.code).toBe('install');
    const [program, ...args] = wordsOf(nextStep.command);
    expect(program).toBe('cursorhooks');
    const installed = await cli(args);
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(readHooks(where)).toContain(where.spec.selector);
  });
});
