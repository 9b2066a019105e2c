// What the CLI prints, word for word, for every command's help and every usage error it owns,
// checked against a reviewed snapshot; and the small modules' edges one by one. The CLI is
// imported afresh inside each test: its command table, help texts and limits are module-level
// constants, and a mutation run switches a mutant in only for code evaluated after the test began.
// Update the snapshot with `npx vitest run test/cli/cli.mutation.test.ts -u` and review its diff.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Draft, record } from '../shell/records.js';

const dir = mkdtempSync(join(tmpdir(), 'cursorhooks-cli-mutation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Stdin = string | Uint8Array | AsyncIterable<Uint8Array>;

/** Runs the CLI from a fresh copy of its modules; temp paths in the output read `<dir>`. */
async function freshCli(args: readonly string[], stdin: Stdin = '') {
  vi.resetModules();
  const { run } = await import('../../src/cli/run.js');
  let stdout = '';
  let stderr = '';
  const input = typeof stdin === 'string' ? new TextEncoder().encode(stdin) : stdin;
  const exitCode = await run(args, input, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  const clean = (text: string) => text.split(dir).join('<dir>');
  return { exitCode, stdout: clean(stdout), stderr: clean(stderr) };
}

const COMMAND_NAMES = [
  'plan',
  'verify',
  'render-argv',
  'contracts',
  'install',
  'update',
  'remove',
  'repair',
  'release',
  'status',
  'doctor',
  'simulate-stop',
  'qualify',
  'help',
];

function recordFile(name: string, edit?: (r: Draft) => void): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(record(edit)));
  return path;
}

function file(name: string, bytes: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const plan = (request: unknown) => [['plan'], JSON.stringify(request)] as const;
const spec = { executable: '/opt/a', selector: '/etc/a.json' };

/** Argv and stdin of each case; its output is the snapshot's. */
const USAGE: Record<string, readonly [readonly string[], Stdin?]> = {
  'no command': [[]],
  'unknown command': [['nope']],
  'unknown command, not name-like': [['no/pe']],
  'help of an unknown command': [['help', 'nope']],
  'help of two commands': [['help', 'plan', 'verify']],
  'a value given to a boolean option': [['contracts', '--json=yes']],
  'an option without its value': [['render-argv', '--shell']],
  'an option whose value looks like an option': [['render-argv', '--shell', '-x']],
  'an option given twice': [['render-argv', '--shell', 'a', '--shell', 'b', '--', 'x']],
  'an argument before --': [['render-argv', '--shell', 'a', 'x']],
  'an argument to a command that takes none': [['contracts', 'extra']],
  'a required option missing': [['render-argv', '--', 'x']],
  'an unknown long option': [['plan', '--bogus']],
  'an unknown short option': [['plan', '-z']],
  'an unknown option, not name-like': [['plan', '--no/pe']],
  'an unknown --shell': [['render-argv', '--shell', 'nope', '--', 'x']],
  'a request not UTF-8': [['plan'], new Uint8Array([0x7b, 0xff, 0x7d])],
  'an empty request': [['plan'], ' \n'],
  'a request not JSON': [['plan'], 'nope'],
  'a request that is an array': [['plan'], '[]'],
  'a request that is null': [['plan'], 'null'],
  'a request repeating a key': [['plan'], '{"operation":"install","operation":"remove"}'],
  'a request without its required field': [['plan'], '{}'],
  'a request with an unknown field': [['plan'], '{"operation":"install","bogus":1}'],
  'a request with an unknown field, not name-like': [['plan'], '{"operation":"install","no/pe":1}'],
  'operation not a string': plan({ operation: 5 }),
  'specs not an array': plan({ operation: 'install', specs: {} }),
  'specs with an incomplete spec': plan({ operation: 'install', specs: [{ executable: 'a' }] }),
  'specs with an extra key': plan({ operation: 'install', specs: [{ ...spec, x: 1 }] }),
  'specs with a spec of numbers': plan({
    operation: 'install',
    specs: [{ executable: 1, selector: 2 }],
  }),
  'specs with one good spec and a number': plan({ operation: 'install', specs: [spec, 5] }),
  'specs with a spec that is null': plan({ operation: 'install', specs: [null] }),
  'previous an array': plan({ operation: 'install', previous: [] }),
  'shell a number': plan({ operation: 'install', shell: 5 }),
  'executableVerified a string': plan({ operation: 'install', executableVerified: 'yes' }),
  'document a number': plan({ operation: 'install', document: 5 }),
  'both document and documentBase64': plan({
    operation: 'install',
    document: '{}',
    documentBase64: 'e30=',
  }),
  'documentBase64 not canonical': plan({ operation: 'install', documentBase64: 'e30' }),
  'document with an unpaired surrogate': [['plan'], '{"operation":"install","document":"\\ud800"}'],
  'verify without a receipt': [['verify'], '{"document":"{}"}'],
  'verify with a receipt that is a string': [['verify'], '{"receipt":"r"}'],
  'simulate-stop --payload with --conformance': [
    ['simulate-stop', '--ledger', '/l.json', '--conformance', '--payload', '/p.json'],
  ],
};

describe('the CLI`s words, against the reviewed snapshot', () => {
  it('prints the command list, as text and JSON (red: a command`s name, summary, options or the exit-code table changed)', async () => {
    expect(await freshCli(['help'])).toMatchSnapshot();
    expect(await freshCli(['help', '--json'])).toMatchSnapshot();
    expect(await freshCli(['--help'])).toMatchSnapshot();
  });

  it.each(COMMAND_NAMES)(
    'prints the help of %s, as text and JSON (red: its description, an option, a field or its usage line changed)',
    async (name) => {
      expect(await freshCli([name, '--help'])).toMatchSnapshot();
      expect(await freshCli(['help', name, '--json'])).toMatchSnapshot();
    },
  );

  it.each(Object.entries(USAGE))(
    'refuses %s with its fixed reason and message, in JSON and text (red: a usage check or its words changed)',
    async (_, [args, stdin]) => {
      expect(await freshCli([...args, '--json'], stdin)).toMatchSnapshot();
      const text = await freshCli(args, stdin);
      expect(text.stdout).toBe('');
      expect(text.stderr).toMatchSnapshot();
    },
  );
});

describe('--contract-file', () => {
  it('refuses a file it cannot read, one too large, one not UTF-8, one repeating a key, one not JSON and one not a record, each naming the option (red: a bad contract file reaches the planner, or the user cannot tell what is wrong)', async () => {
    const bad = {
      missing: join(dir, 'missing.json'),
      large: file('large.json', `${' '.repeat(256 * 1024)}{}`),
      // Inside a string: decoded leniently it would be valid JSON.
      utf8: file(
        'utf8.json',
        new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      ),
      repeated: file('repeated.json', '{"a":1,"a":2}'),
      json: file('json.json', '{'),
      record: file('record.json', '{"version":1}'),
    };
    for (const [name, path] of Object.entries(bad)) {
      expect(await freshCli(['contracts', '--contract-file', path, '--json'])).toMatchSnapshot(
        name,
      );
    }
  });

  it('takes a file of exactly 256 KiB (red: the size limit is off by one)', async () => {
    const text = JSON.stringify(record());
    const path = file('exact.json', `${text}${' '.repeat(256 * 1024 - Buffer.byteLength(text))}`);
    const listed = await freshCli(['contracts', '--contract-file', path, '--json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
  });

  it('lists a record`s contract as text, its platform, architecture and date as recorded (red: the text listing misprints the evidence)', async () => {
    const path = recordFile('listed.json');
    const listed = await freshCli(['contracts', '--contract-file', path]);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toMatchSnapshot();
  });
});

describe('reading stdin', () => {
  async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
    for (const part of parts) yield new TextEncoder().encode(part);
  }

  it('joins a request sent in chunks (red: a streamed request is lost or refused)', async () => {
    const outcome = await freshCli(
      ['plan', '--json'],
      chunks(
        '{"operation":',
        '"install",',
        '"specs":[{"executable":"/opt/a","selector":"/etc/a.json"}],"executableVerified":true,"shell":"cursor-linux-user-3.22.12-single-quote"}',
      ),
    );
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(JSON.parse(outcome.stdout).receipt.spec).toEqual(spec);
  });

  it('takes a request of exactly 9 MiB and refuses one byte more, streamed or whole (red: the request cap moved)', async () => {
    const cap = 9 * 1024 * 1024;
    const body = '{"operation":"install"';
    const exact = `${body}${' '.repeat(cap - body.length - 1)}}`;
    for (const stdin of [exact, chunks(exact)]) {
      const outcome = await freshCli(['plan', '--json'], stdin);
      expect(JSON.parse(outcome.stderr || '{}').error?.reason).not.toBe('request-too-large');
    }
    for (const stdin of [`${exact} `, chunks(exact, ' ')]) {
      const outcome = await freshCli(['plan', '--json'], stdin);
      expect(outcome.exitCode).toBe(2);
      expect(JSON.parse(outcome.stderr).error).toMatchObject({
        reason: 'request-too-large',
        message: 'the request on stdin exceeds 9 MiB',
      });
    }
  });

  it('reports a stream that fails as stdin-unreadable, exit 74 (red: a broken pipe is a crash or a usage error)', async () => {
    const failing: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(new Error('EIO')),
      }),
    };
    const outcome = await freshCli(['plan', '--json'], failing);
    expect(outcome.exitCode).toBe(74);
    expect(JSON.parse(outcome.stderr).error).toMatchObject({ reason: 'stdin-unreadable' });
  });
});

describe('small modules', () => {
  it('exactText keeps a leading BOM and refuses bytes that are not UTF-8 (red: the text differs from the bytes)', async () => {
    vi.resetModules();
    const { exactText } = await import('../../src/cli/bytes.js');
    expect(exactText(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe('\ufeff{}');
    expect(() => exactText(new Uint8Array([0xff]))).toThrow();
  });

  it('the version is the one the bundle inlines, when it inlines one (red: the bundle reads package.json on every --version)', async () => {
    vi.resetModules();
    vi.stubGlobal('CURSORHOOKS_VERSION', '9.9.9-inlined');
    try {
      const { packageVersion } = await import('../../src/cli/version.js');
      expect(await packageVersion()).toBe('9.9.9-inlined');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a CliError is named CliError (red: a stack trace names another error type)', async () => {
    const { CliError } = await import('../../src/cli/cli-error.js');
    expect(new CliError('usage', 'x', 'y').name).toBe('CliError');
  });

  it('errorLine names the file by its role, or as a path, and the lock holder (red: a text-mode failure hides which file or who holds it)', async () => {
    const { errorLine } = await import('../../src/cli/error-output.js');
    const base = { kind: 'io', reason: 'lock-timeout', message: 'timed out' } as const;
    const holder = { pid: 7, hostname: 'h', acquiredAt: '2026-01-01T00:00:00Z' };
    expect(errorLine({ ...base, path: '/l', role: 'lock', holder })).toBe(
      'cursorhooks: timed out (lock file: /l) held by pid 7 on h since 2026-01-01T00:00:00Z [lock-timeout]\n',
    );
    expect(errorLine({ ...base, path: '/p' })).toBe(
      'cursorhooks: timed out (path: /p) [lock-timeout]\n',
    );
    expect(errorLine(base)).toBe('cursorhooks: timed out [lock-timeout]\n');
  });

  it('repeatsKey follows escapes, arrays and nesting (red: a repeated key hides behind an escaped quote or an array, or keys of a closed object still count)', async () => {
    const { repeatsKey } = await import('../../src/cli/duplicate-keys.js');
    expect(repeatsKey('{"a\\"b":1,"a\\"b":2}')).toBe(true);
    expect(repeatsKey('{"a":[1,2],"a":3}')).toBe(true);
    expect(repeatsKey('{"o":{"a":1},"a":2}')).toBe(false);
    expect(repeatsKey('{"a":"\\u0061","\\u0061":1}')).toBe(true);
    expect(repeatsKey('[{"a":1},{"a":1}]')).toBe(false);
  });

  it('main wires argv after the script, stdin on first use and the exit code (red: the process runs the wrong argv or exits 0 on failure)', async () => {
    vi.resetModules();
    const run = vi.fn(async () => 3);
    const interrupt = vi.fn();
    const standardInput = vi.fn();
    const written: string[] = [];
    vi.doMock('../../src/cli/run.js', () => ({ run }));
    vi.doMock('../../src/node/side-files/interrupt.js', () => ({
      removeSideFilesOnInterrupt: interrupt,
    }));
    vi.doMock('../../src/cli/process-io.js', () => ({
      standardInput,
      writeStandardOutput: (text: string) => written.push(text),
    }));
    const argv = process.argv;
    const exitCode = process.exitCode;
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.argv = ['node', 'cli.cjs', 'status', '--json'];
    try {
      await import('../../src/cli/main.js');
      await vi.waitFor(() => expect(process.exitCode).toBe(3));
      expect(interrupt).toHaveBeenCalledOnce();
      const [args, stdin, io] = run.mock.calls[0] as unknown as [
        string[],
        AsyncIterable<Uint8Array>,
        { stdout: (t: string) => void; stderr: (t: string) => void },
      ];
      expect(args).toEqual(['status', '--json']);
      expect(standardInput).not.toHaveBeenCalled();
      stdin[Symbol.asyncIterator]();
      expect(standardInput).toHaveBeenCalledOnce();
      io.stdout('out');
      io.stderr('err');
      expect(written).toEqual(['out']);
      expect(stderr).toHaveBeenCalledWith('err');
    } finally {
      process.argv = argv;
      process.exitCode = exitCode;
      stderr.mockRestore();
      vi.doUnmock('../../src/cli/run.js');
      vi.doUnmock('../../src/node/side-files/interrupt.js');
      vi.doUnmock('../../src/cli/process-io.js');
    }
  });
});
