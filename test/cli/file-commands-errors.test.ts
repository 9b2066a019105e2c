import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_OF_KIND } from '../../src/cli/cli-error.js';
import { failureJSON } from '../../src/cli/file/failure.js';
import { ConflictError } from '../../src/index.js';
import { FileChangedError, HostIOError, LedgerError } from '../../src/node/errors.js';
import { files, home, install, readHooks, result, specArgs, writeHooks } from './file-support.js';
import { cli, expectUsageError } from './support.js';

describe('file-level command usage errors', () => {
  it.each([
    ['install without --ledger', ['install', '--json'], 'option-required', '--ledger'],
    ['status without --ledger', ['status', '--json'], 'option-required', '--ledger'],
    [
      'install without --executable',
      ['install', '--ledger', '/l', '--selector', '/s', '--shell', 'x', '--json'],
      'option-required',
      '--executable',
    ],
    [
      'update without --shell',
      ['update', '--ledger', '/l', '--executable', '/e', '--selector', '/s', '--json'],
      'option-required',
      '--shell',
    ],
    [
      'repair with --executable alone',
      ['repair', '--ledger', '/l', '--executable', '/e', '--json'],
      'option-required',
      '--selector',
    ],
    [
      'status with --selector alone',
      ['status', '--ledger', '/l', '--selector', '/s', '--json'],
      'option-required',
      '--executable',
    ],
    [
      'remove with a spec',
      ['remove', '--ledger', '/l', '--executable', '/e', '--json'],
      'option-unknown',
      '--executable',
    ],
    [
      'status with --dry-run',
      ['status', '--ledger', '/l', '--dry-run', '--json'],
      'option-unknown',
      '--dry-run',
    ],
    [
      'a misspelt option',
      ['install', '--ledger', '/l', '--dryrun', '--json'],
      'option-unknown',
      '--dryrun',
    ],
    [
      '--ledger without a value',
      ['remove', '--ledger', '--json'],
      'option-value-missing',
      '--ledger',
    ],
  ])(
    '%s is a usage error naming the option (red: bad usage runs, or is blamed on the wrong option)',
    async (_, args, reason, option) => {
      expectUsageError(await cli(args), reason, { option });
    },
  );
});

describe('file-level I/O failures exit 74 with nothing written', () => {
  it('when the hook file is a directory (red: a directory is read as a file, or the failure is a refusal)', async () => {
    const where = home();
    mkdirSync(where.hooks);
    const failed = result(await install(where), 74);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { kind: 'io', reason: 'file-not-regular' },
    });
  });

  it('when a parent of the hook file is a regular file (ENOTDIR) (red: an unusable path crashes or exits 70)', async () => {
    const where = home();
    const blocker = join(where.dir, 'not-a-dir');
    writeFileSync(blocker, '');
    const outcome = await cli([
      'install',
      '--hooks-file',
      join(blocker, 'hooks.json'),
      '--ledger',
      where.ledger,
      ...specArgs(where.spec),
      '--json',
    ]);
    expect(result(outcome, 74).error).toMatchObject({ kind: 'io', reason: 'io-failure' });
  });

  // Red before 882a164: the failure named the ledger, which release never got to.
  it('release --hooks-file /etc/passwd/hooks.json names the hook file, not the ledger, in JSON and text', async () => {
    const where = home();
    const args = ['release', '--hooks-file', '/etc/passwd/hooks.json', '--ledger', where.ledger];
    const outcome = await cli([...args, '--json']);
    expect(outcome.exitCode).toBe(74);
    const subject = { kind: 'io', role: 'hook-file', path: '/etc/passwd/hooks.json' };
    expect(JSON.parse(outcome.stdout).error).toMatchObject(subject);
    expect(JSON.parse(outcome.stderr).error).toMatchObject(subject);
    const text = await cli(args);
    expect(text.stderr).toContain('(hook file: /etc/passwd/hooks.json)');
    expect(text.stderr).not.toContain(where.ledger);
  });

  it('when the ledger cannot be created, leaving the hook file as it was (red: the hook file is written without its receipt being recorded)', async () => {
    const where = home();
    writeHooks(where);
    const before = readHooks(where);
    const blocker = join(where.dir, 'not-a-dir');
    writeFileSync(blocker, '');
    const outcome = await cli([
      'install',
      '--hooks-file',
      where.hooks,
      '--ledger',
      join(blocker, 'ledger.json'),
      ...specArgs(where.spec),
      '--json',
    ]);
    expect(result(outcome, 74).error?.kind).toBe('io');
    expect(readHooks(where)).toBe(before);
  });

  it('in text mode too: one line on stderr (red: the text failure is not the one error line)', async () => {
    const where = home();
    mkdirSync(where.hooks);
    const outcome = await cli(['status', ...files(where)]);
    // status reports an unusable file instead of failing
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toContain('file: refused (file-not-regular)');
    const failed = await cli(['remove', ...files(where)]);
    expect(failed.exitCode).toBe(74);
    expect(failed.stderr).toMatch(/^cursorhooks: [^\n]+ \[file-not-regular\]\n$/);
  });
});

describe('a malformed ledger is refused, never overwritten', () => {
  it.each([
    ['{"cursorhooksLedger": 99, "files": {}}', 'ledger-version-unsupported'],
    ['{"files": []}', 'ledger-malformed'],
  ])(
    '%s exits 1 with %s (red: a damaged ledger is replaced, losing other hosts records)',
    async (ledger, reason) => {
      const where = home();
      writeHooks(where);
      writeFileSync(where.ledger, ledger);
      const refused = result(await install(where), 1);
      expect(refused.error).toMatchObject({ kind: 'conflict', reason });
      expect(readHooks(where)).not.toContain('agent-notify');
      expect(readFileSync(where.ledger, 'utf8')).toBe(ledger);
    },
  );
});

describe('the kit errors exit codes', () => {
  // A concurrent change that outlasts the kit's re-plans cannot be staged reliably through the
  // CLI, so the mapping itself is checked: the kit's outcome error decides the exit code.
  it.each([
    [new FileChangedError(), 'changed', 75],
    [new HostIOError('permission-denied', 'EACCES'), 'io', 74],
    [new HostIOError('lock-timeout'), 'io', 74],
    [new LedgerError('pending-unresolved'), 'conflict', 1],
    [new ConflictError('owner-modified'), 'conflict', 1],
  ])(
    '%o is kind %s, exit %i (red: a retryable change or an I/O failure reads as a refusal)',
    (error, kind, code) => {
      const json = failureJSON(error);
      expect(json).toEqual({ kind, reason: error.reason, message: error.message });
      expect(EXIT_CODE_OF_KIND[json.kind]).toBe(code);
    },
  );
});
