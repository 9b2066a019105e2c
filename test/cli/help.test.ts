import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { cli, output } from './support.js';

// Help must not wait for or read stdin; this one fails the run if it is touched.
const UNREADABLE: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]: () => ({
    next: async () => {
      throw new Error('stdin was read');
    },
  }),
};

const NAMES = [
  'plan',
  'verify',
  'render-argv',
  'contracts',
  'install',
  'update',
  'remove',
  'repair',
  'release',
  'disable',
  'enable',
  'status',
  'doctor',
  'simulate-stop',
  'qualify',
  'help',
];
const PACKAGE_VERSION = (await import('../../package.json', { with: { type: 'json' } })).default
  .version;

describe('cursorhooks help', () => {
  it.each([[['--help']], [['-h']], [['help']]])(
    'prints the tool usage for %j with exit 0 (red: tool help is missing)',
    async (args) => {
      const outcome = await cli(args, UNREADABLE);
      expect(outcome.exitCode).toBe(0);
      expect(outcome.stderr).toBe('');
      expect(outcome.stdout).toMatch(/^Usage: cursorhooks <command>/);
      for (const name of NAMES) expect(outcome.stdout).toContain(`\n  ${name} `);
      for (const code of [0, 1, 2, 70, 74, 75, 141]) {
        expect(outcome.stdout).toMatch(new RegExp(`\\n  ${code} +\\S`));
      }
      expect(outcome.stdout).toContain('{"error": {"kind", "reason", "message"');
    },
  );

  it.each([
    ['plan', /executableVerified +true once/],
    ['verify', /\{"owned": true\}/],
    ['render-argv', /--shell ID +a registered contract id/],
    ['contracts', /--json +machine output/],
    ['simulate-stop', /--conformance +run the conformance matrix instead of one stop/],
    ['help', /\[COMMAND\]/],
  ])(
    'prints %s usage the same three ways with exit 0 (red: command help is missing or runs the command)',
    async (name, detail) => {
      const outcomes = await Promise.all([
        cli(['help', name], UNREADABLE),
        cli([name, '--help'], UNREADABLE),
        cli([name, '-h'], UNREADABLE),
      ]);
      for (const outcome of outcomes) {
        expect(outcome.exitCode).toBe(0);
        expect(outcome.stderr).toBe('');
        expect(outcome.stdout).toMatch(new RegExp(`^Usage: cursorhooks ${name} `));
        expect(outcome.stdout).toMatch(detail);
        expect(outcome.stdout).toBe(outcomes[0]?.stdout);
      }
    },
  );

  it('names each command table row after the command its module loads (red: a name runs another command)', async () => {
    const loaded = await loadCommands(COMMANDS);
    expect(loaded.map((command) => command.name)).toEqual(COMMANDS.map((entry) => entry.name));
    expect(COMMANDS.map((entry) => entry.name)).toEqual(NAMES);
  });

  it('lists every declared option of a command in its help (red: help drifts from the parser)', async () => {
    for (const command of await loadCommands(COMMANDS)) {
      const { stdout } = await cli(['help', command.name]);
      for (const name of [...Object.keys(command.options), 'json', 'help']) {
        expect(stdout, `${command.name} --${name}`).toMatch(
          new RegExp(`\\n  (-\\w, )?--${name}\\b`),
        );
      }
      for (const field of Object.keys(command.request ?? {})) {
        expect(stdout, `${command.name} ${field}`).toContain(`\n  ${field} `);
      }
    }
  });

  it('prints render-argv help when --help comes after --shell, and not after -- (red: help only works first, or eats a token)', async () => {
    const outcome = await cli(['render-argv', '--shell', 'x', '--help', '--', 'y'], UNREADABLE);
    expect(outcome.stdout).toMatch(/^Usage: cursorhooks render-argv/);
    const token = await cli([
      'render-argv',
      '--shell',
      'cursor-linux-user-3.22.12-single-quote',
      '--',
      '--help',
    ]);
    expect(token.stdout).toBe("'--help'\n");
  });

  it('describes every command as JSON with help --json (red: machine help is missing or partial)', async () => {
    const described = output<{ commands: { name: string; options: { name: string }[] }[] }>(
      await cli(['help', '--json'], UNREADABLE),
    );
    expect(described.commands.map((command) => command.name)).toEqual(NAMES);
    const renderArgv = described.commands.find((command) => command.name === 'render-argv');
    expect(renderArgv?.options.map((option) => option.name)).toEqual([
      '--shell',
      '--contract-file',
      '--json',
      '--help',
    ]);
    const one = output<{ commands: unknown[] }>(await cli(['plan', '--help', '--json']));
    expect(one.commands).toHaveLength(1);
  });
});

describe('cursorhooks --version', () => {
  it("prints the package's version, as text or JSON (red: --version is missing or stale)", async () => {
    expect(await cli(['--version'], UNREADABLE)).toEqual({
      exitCode: 0,
      stdout: `${PACKAGE_VERSION}\n`,
      stderr: '',
    });
    expect(output(await cli(['--version', '--json'], UNREADABLE))).toEqual({
      version: PACKAGE_VERSION,
    });
  });
});

// Red: a long option (--vouch-unperformed-checks) runs into its help text.
it('aligns every option, argument and field column in each command help', async () => {
  const listed = JSON.parse((await cli(['help', '--json'])).stdout).commands as { name: string }[];
  for (const { name } of listed) {
    const { stdout } = await cli(['help', name]);
    for (const section of stdout
      .split('\n\n')
      .filter((s) => /^(Options|Arguments|Request)/.test(s))) {
      const rows = section.split('\n').slice(1);
      // Where the help text starts: after the first run of two or more spaces.
      const starts = new Set(rows.map((row) => row.match(/^ +\S(?:.*?\S)?( {2,})/)?.[0].length));
      expect(starts.size, `${name}: ${section}`).toBe(1);
    }
  }
});
