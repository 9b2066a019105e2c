// `--contract-file PATH`: a qualification record registered as a contract on every command that
// takes --shell, and listed by `contracts`.
import { renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LinuxUserShell32212 } from '../../src/index.js';
import { type Draft, record } from '../shell/records.js';
import { files, home, writeHooks } from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli, expectUsageError } from './support.js';

const ID = 'cursor-ide-3.40.1-linux-x64-posix-single-quote';

function recordFile(dir: string, edit?: (r: Draft) => void, name = 'record.json'): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(record(edit), null, 2));
  return path;
}

describe('--contract-file', () => {
  // Red before: a relative --contract-file was read against the working directory (exit 0),
  // while a relative --hooks-file, --ledger or qualify --out was refused as usage.
  it('a relative path is refused as option-path-relative, exit 2, as every other path option', async () => {
    const where = home();
    const file = relative(process.cwd(), recordFile(where.dir));
    expectUsageError(
      await cli(['contracts', '--contract-file', file, '--json']),
      'option-path-relative',
      { option: '--contract-file' },
    );
    const hooks = relative(process.cwd(), join(where.dir, 'hooks.json'));
    const given = ['--hooks-file', hooks, '--ledger', join(where.dir, 'ledger.json')];
    expectUsageError(await cli(['status', ...given, '--json']), 'option-path-relative', {
      option: '--hooks-file',
    });
  });

  it('registers the record for contracts, render-argv, install and status (red: a qualified build cannot be used from the CLI)', async () => {
    const where = home();
    writeHooks(where);
    const file = recordFile(where.dir);
    const listed = await cli(['contracts', '--contract-file', file, '--json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expectSchema('contracts-result', JSON.parse(listed.stdout));
    expect(JSON.parse(listed.stdout).map((c: { id: string }) => c.id)).toContain(ID);

    const rendered = await cli([
      'render-argv',
      '--shell',
      ID,
      '--contract-file',
      file,
      '--',
      "a'b",
      'c',
    ]);
    const builtin = await cli(['render-argv', '--shell', LinuxUserShell32212, '--', "a'b", 'c']);
    expect(rendered.stdout).toBe(builtin.stdout);

    const spec = ['--executable', where.spec.executable, '--selector', where.spec.selector];
    const installed = await cli([
      'install',
      ...files(where),
      ...spec,
      '--shell',
      ID,
      '--contract-file',
      file,
      '--json',
    ]);
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(JSON.parse(installed.stdout).receipt.shell).toBe(ID);

    // Without the record at its place nothing of ours can be verified: status says so instead
    // of release (the ledger's own copy of where it was is followed otherwise).
    const away = `${file}.away`;
    renameSync(file, away);
    const blind = JSON.parse((await cli(['status', ...files(where), '--json'])).stdout);
    expectSchema('status-result', blind);
    expect(blind.nextStep.code).toBe('register-contract');
    renameSync(away, file);
    const seen = JSON.parse(
      (await cli(['status', ...files(where), '--contract-file', file, '--json'])).stdout,
    );
    expect(seen.nextStep.code).toBe('none');
    expect(seen.contract.evidence.version).toBe('3.40.1');
  });

  it('refuses a hand-edited record as a usage error naming the option and the record reason (red: a bad record reaches the lifecycle or crashes)', async () => {
    const where = home();
    const file = recordFile(where.dir, (r) => {
      r.probe.recorded.argv[1] = 'cursor-event-x';
    });
    const outcome = await cli(['contracts', '--contract-file', file, '--json']);
    expect(outcome.exitCode).toBe(2);
    expect(JSON.parse(outcome.stderr).error).toMatchObject({
      reason: 'record-argv-mismatch',
      option: '--contract-file',
    });
  });

  it.each([
    ['missing', (dir: string) => join(dir, 'nope.json'), 74, 'contract-file-unreadable'],
    [
      'not JSON',
      (dir: string) => {
        const p = join(dir, 'x.json');
        writeFileSync(p, '{');
        return p;
      },
      2,
      'contract-file-not-json',
    ],
    [
      'with a repeated key',
      (dir: string) => {
        const p = join(dir, 'x.json');
        writeFileSync(p, '{"version":1,"version":1}');
        return p;
      },
      2,
      'contract-file-not-json',
    ],
  ])(
    'refuses a contract file %s with %i %s (red: the user cannot tell what is wrong with the file)',
    async (_, make, exit, reason) => {
      const where = home();
      const outcome = await cli(['contracts', '--contract-file', make(where.dir), '--json']);
      expect(outcome.exitCode).toBe(exit);
      expectSchema('error', JSON.parse(outcome.stderr));
      expect(JSON.parse(outcome.stderr).error.reason).toBe(reason);
    },
  );

  it('refuses the same contract twice (red: two records for one id are silently merged)', async () => {
    const where = home();
    const a = recordFile(where.dir);
    const b = recordFile(where.dir, undefined, 'again.json');
    const outcome = await cli(['contracts', '--contract-file', a, '--contract-file', b, '--json']);
    expect(outcome.exitCode).toBe(2);
    expect(JSON.parse(outcome.stderr).error.reason).toBe('shell-contract-duplicate');
  });
});
