import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blocks, page, ROOT } from '../docs/pages.js';
import { cli } from './support.js';

interface Example {
  readonly args: string[];
  readonly request: string;
  readonly exitCode: number;
  readonly stream: 'stdout' | 'stderr';
  readonly output: unknown;
}

/** The `<!-- cli-example -->` blocks of every page: command, request, exit code and output. */
function examples(): Example[] {
  return blocks('cliExample').map(({ groups: [command, request, exitCode, stream, output] }) => ({
    args: (command ?? '').split(' '),
    request: request ?? '',
    exitCode: Number(exitCode),
    stream: stream === 'stderr' ? 'stderr' : 'stdout',
    output: JSON.parse(output ?? ''),
  }));
}

/** Every reason the CLI's own code can raise, read from its sources. */
function cliReasons(): string[] {
  const directory = new URL('src/cli/', ROOT);
  const files = readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.ts'),
  );
  const reasons = new Set<string>();
  for (const file of files) {
    const source = readFileSync(new URL(file, directory), 'utf8');
    for (const match of source.matchAll(
      /(?:usageError\(\s*|new CliError\(\s*'\w+',\s*|reason: )'([a-z0-9-]+)'/g,
    )) {
      reasons.add(match[1] ?? '');
    }
  }
  return [...reasons].sort();
}

describe('the documented CLI protocol', () => {
  it('holds the worked examples for plan, verify, a refusal and a usage error (red: an example went missing)', () => {
    expect(examples().map((example) => [example.args[0], example.exitCode])).toEqual([
      ['plan', 0],
      ['verify', 0],
      ['plan', 1],
      ['plan', 2],
    ]);
  });

  it.each(examples().map((example, index) => [index + 1, example] as const))(
    'example %i prints what its page shows, with its exit code (red: the documented protocol drifted)',
    async (_, example) => {
      const outcome = await cli(example.args, example.request);
      expect(outcome.exitCode).toBe(example.exitCode);
      const other = example.stream === 'stdout' ? outcome.stderr : outcome.stdout;
      expect(other).toBe('');
      expect(JSON.parse(outcome[example.stream])).toEqual(example.output);
    },
  );

  it('lists every reason the CLI raises in its reason table (red: a new reason is undocumented)', () => {
    const reasons = cliReasons();
    expect(reasons.length).toBeGreaterThanOrEqual(20);
    const refusals = page('docs/refusals.md').text;
    const table = refusals.slice(refusals.indexOf("## The CLI's own reasons"));
    for (const reason of reasons) expect(table, reason).toContain(`\`${reason}\``);
  });

  it('lists every exit code the CLI defines (red: an exit code is undocumented)', async () => {
    const { ExitCode } = await import('../../src/cli/exit-codes.js');
    for (const code of Object.values(ExitCode))
      expect(page('docs/protocol.md').text).toMatch(new RegExp(`\\n\\| ${code} \\|`));
  });

  it('documents every command the CLI lists and every schema it ships (red: a new command or schema is undocumented)', async () => {
    // The names a table row of docs/protocol.md starts with: `install`, `update` | … names two.
    const named = new Set(
      page('docs/protocol.md')
        .text.split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) =>
          [...(line.split(' | ', 1)[0] ?? '').matchAll(/`([a-z-]+)[` ]/g)].map((m) => m[1]),
        ),
    );
    const help = JSON.parse((await cli(['help', '--json'])).stdout) as {
      commands: { name: string }[];
    };
    expect(help.commands.length).toBeGreaterThanOrEqual(11);
    for (const { name } of help.commands) expect(named, name).toContain(name);
    const schemas = readdirSync(new URL('schemas/', ROOT)).filter((file) => file.endsWith('.json'));
    expect(schemas.length).toBeGreaterThanOrEqual(15);
    for (const file of schemas) expect(named, file).toContain(file.replace(/\.json$/, ''));
  });
});
