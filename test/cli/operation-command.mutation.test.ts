// The shape the four file-level operations share, run in-process on a temporary home: what each
// option hands the kit's runOperation, which output the run prints, and how a refusal leaves.
// The kit's checker is replaced by one that reports what the test sets (all passed, or one check
// not performed), and runOperation is watched so the options it is given can be read.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HookSpec } from '../../src/index.js';
import { runOperation } from '../../src/node/run-operation.js';
import type { HostPathReport } from '../../src/node/status/path-report.js';
import { blockingFs } from '../../src/node/write/fs-seam.js';
import { fileCli, files, home, install, readHooks, result, specArgs } from './file-support.js';
import { cli } from './support.js';

const next = vi.hoisted(() => ({ unperformed: false }));

vi.mock('../../src/node/status/path-checks.js', () => ({
  checkHostPaths: async (spec: HookSpec): Promise<HostPathReport> => ({
    verified: !next.unperformed,
    checks: [
      { role: 'executable', check: 'path-absolute', status: 'passed', path: spec.executable },
      next.unperformed
        ? {
            role: 'executable',
            check: 'owner',
            status: 'not-performed',
            path: spec.executable,
            detail: 'Not measured.',
          }
        : { role: 'executable', check: 'owner', status: 'passed', path: spec.executable },
    ],
  }),
}));

vi.mock('../../src/node/run-operation.js', async (original) => {
  const kit = await original<typeof import('../../src/node/run-operation.js')>();
  return { ...kit, runOperation: vi.fn(kit.runOperation) };
});

const watched = vi.mocked(runOperation);

afterEach(() => {
  next.unperformed = false;
  watched.mockClear();
});

/** The options the one runOperation call of the run was given. */
function given() {
  expect(watched).toHaveBeenCalledTimes(1);
  return watched.mock.calls[0]?.[0];
}

describe('operationCommand', () => {
  // Red: --dry-run ignored (the file written), or a real run taken for a dry one.
  it('writes nothing on --dry-run and writes without it', async () => {
    const where = home();
    const dry = result(await install(where, '--dry-run'), 0);
    expect(dry).toMatchObject({ status: 'dry-run', dryRun: true, changed: true });
    expect(given()).toMatchObject({ operation: 'install', dryRun: true });
    expect(existsSync(where.hooks)).toBe(false);
    watched.mockClear();

    const done = result(await install(where), 0);
    expect(done).toMatchObject({ status: 'done', dryRun: false, changed: true });
    expect(given()).toMatchObject({
      operation: 'install',
      hooksFile: where.hooks,
      ledger: where.ledger,
      spec: where.spec,
      shell: specArgs(where.spec)[5],
      dryRun: false,
      // The CLI runs nothing else meanwhile: each file call skips the thread pool's round trip.
      fs: blockingFs,
    });
    expect(readHooks(where)).toContain('agent-notify');
  });

  // Red: --vouch-unperformed-checks ignored, or vouching without the flag.
  it('vouches for checks not performed only with the flag', async () => {
    next.unperformed = true;
    const where = home();
    const refused = result(await install(where), 1);
    expect(refused).toMatchObject({ status: 'refused', hostPaths: { vouched: false } });
    expect(refused.error?.reason).toBe('executable-unverified');
    watched.mockClear();

    const vouched = result(await install(where, '--vouch-unperformed-checks'), 0);
    expect(vouched).toMatchObject({
      status: 'done',
      hostPaths: { verified: false, vouched: true },
    });
  });

  // Red: --accept-metadata-loss not handed to the kit, or handed without the flag.
  it('accepts the metadata loss only with the flag', async () => {
    const where = home();
    result(await install(where, '--dry-run'), 0);
    expect(given()).not.toHaveProperty('acceptMetadataLoss');
    watched.mockClear();
    result(await install(where, '--dry-run', '--accept-metadata-loss'), 0);
    expect(given()).toMatchObject({ acceptMetadataLoss: true });
  });

  // Red: the summary printed for --json, or JSON printed without it.
  it('prints the summary without --json and the result with it', async () => {
    const where = home();
    const text = await cli(['install', ...files(where), ...specArgs(where.spec), '--dry-run']);
    expect(text).toMatchObject({ exitCode: 0, stderr: '' });
    expect(text.stdout).toMatch(
      /^install: dry run: nothing was written; the diff shows what would be\n/,
    );
    const json = await fileCli('install', where, ...specArgs(where.spec), '--dry-run');
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'dry-run', operation: 'install' });
  });

  // Red: a refusal exiting 0 with nothing on stderr; a spec or shell key handed to the kit set to
  // undefined when the option was not given (exactOptionalPropertyTypes: absent, not undefined).
  it('prints the result, then fails with its error; hands no spec or shell it was not given', async () => {
    const where = home();
    const outcome = await fileCli('repair', where);
    const refused = result(outcome, 1);
    expect(refused).toMatchObject({ status: 'refused', operation: 'repair' });
    expect(refused.error).toMatchObject({ kind: 'conflict', reason: 'receipt-required' });
    const options = given();
    expect(options).not.toHaveProperty('spec');
    expect(options).not.toHaveProperty('shell');
  });
});

describe('operationCommand declaration', () => {
  // Red: the declaration's name, texts or options not carried over, --contract-file not added,
  // or the output description emptied. Imported afresh: that description is a module constant.
  it('declares the command with its own options, --contract-file and the output shape', async () => {
    vi.resetModules();
    const { operationCommand } = await import('../../src/cli/file/operation-command.js');
    const { CONTRACT_FILE_OPTION } = await import('../../src/cli/contract-files.js');
    const own = { ledger: { type: 'string', help: 'the ledger' } } as const;
    const command = operationCommand({
      operation: 'remove' as never,
      summary: 'S',
      description: 'D',
      options: own,
    });
    expect(command).toMatchObject({ name: 'remove', summary: 'S', description: 'D' });
    expect(command.options).toStrictEqual({ ...own, ...CONTRACT_FILE_OPTION });
    expect(command.output).toBe(
      [
        'a summary and the unified diff; with --json one object {"status", "command", "operation",',
        '  "dryRun", "hooksFile", "realPath", "changed", "receipt", "generation", "settled", "hostPaths",',
        '  "metadata", "diff", "error", "nextStep"}; "command" is the command run, "operation" the',
        '  lifecycle operation it ran (remove for disable, install for enable).',
        '  A refusal or failure prints this result too (status refused or failed, error set), then the',
        '  error on stderr as every command does.',
      ].join('\n'),
    );
  });
});
