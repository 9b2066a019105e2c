import { describe, expect, it } from 'vitest';
import { cli } from './support.js';

// Help must not wait for or read stdin; this one fails the run if it is touched.
const UNREADABLE: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]: () => ({
    next: async () => {
      throw new Error('stdin was read');
    },
  }),
};

describe('cursorhooks --help', () => {
  it.each([['--help'], ['-h']])(
    'prints the tool usage for %s with exit 0 (red: tool help is missing)',
    async (flag) => {
      const outcome = await cli([flag], UNREADABLE);
      expect(outcome.exitCode).toBe(0);
      expect(outcome.stderr).toBe('');
      expect(outcome.stdout).toMatch(/^Usage: cursorhooks <command>/);
      for (const command of ['plan', 'verify', 'render-argv', 'contracts']) {
        expect(outcome.stdout).toContain(`  ${command}`);
      }
      expect(outcome.stdout).toContain('Exit codes:');
    },
  );

  it.each([
    ['plan', '--help', /executableVerified/],
    ['plan', '-h', /desiredBase64/],
    ['verify', '--help', /"owned": true/],
    ['verify', '-h', /receipt/],
    ['render-argv', '--help', /--shell ID -- TOKEN/],
    ['render-argv', '-h', /--shell ID/],
    ['contracts', '--help', /\{id, evidence\}/],
    ['contracts', '-h', /evidence/],
  ])(
    'prints %s usage for %s with exit 0 (red: subcommand help is missing or runs the command)',
    async (command, flag, detail) => {
      const outcome = await cli([command, flag], UNREADABLE);
      expect(outcome.exitCode).toBe(0);
      expect(outcome.stderr).toBe('');
      expect(outcome.stdout).toMatch(new RegExp(`^Usage: cursorhooks ${command}`));
      expect(outcome.stdout).toMatch(detail);
    },
  );

  it('prints render-argv help when --help comes after --shell (red: help only works first)', async () => {
    const outcome = await cli(['render-argv', '--shell', 'x', '--help', '--', 'y'], UNREADABLE);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toMatch(/^Usage: cursorhooks render-argv/);
  });
});
