// Help as JSON when --json is given only before the command name, or only after it; the tool's
// --help before a command name.
import { describe, expect, it } from 'vitest';
import { cli } from './support.js';

describe('help as JSON', () => {
  it('the tool`s --help --json describes every command as JSON (red: JSON was asked for and text came)', async () => {
    const outcome = await cli(['--help', '--json']);
    expect(outcome.exitCode).toBe(0);
    const { commands } = JSON.parse(outcome.stdout) as { commands: { name: string }[] };
    expect(commands.map((command) => command.name)).toContain('qualify');
    expect(commands).toHaveLength(16);
  });

  it('a command`s own --json with --help gives its description as JSON (red: the command`s --json is ignored for help)', async () => {
    const outcome = await cli(['contracts', '--help', '--json']);
    expect(outcome.exitCode).toBe(0);
    const { commands } = JSON.parse(outcome.stdout) as { commands: { name: string }[] };
    expect(commands.map((command) => command.name)).toEqual(['contracts']);
  });

  it('the tool`s --help before a command prints that command`s help instead of running it (red: the command runs)', async () => {
    const outcome = await cli(['--help', 'contracts']);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout.startsWith('Usage: cursorhooks contracts [options]\n')).toBe(true);
  });
});
