// What an install, update, remove or repair run reports, built straight from an outcome the test
// writes: every field of the JSON result and every line of the summary, word for word. The module
// is imported afresh inside each test: its status sentences are module-level constants, and a
// mutation run switches a mutant in only for code evaluated after the test began.
import { describe, expect, it, vi } from 'vitest';
import type { HostPathsJSON } from '../../src/cli/file/host-paths.js';
import type { OperationResultJSON } from '../../src/cli/file/operation-result.js';
import type { OperationOutcome, OperationStatus } from '../../src/node/run-operation.js';
import { Operation } from '../../src/planner/operation.js';
import { SAMPLE_RECEIPT } from './support.js';

/** The module afresh, with the error classes of the same fresh module graph. */
async function fresh() {
  vi.resetModules();
  const module = await import('../../src/cli/file/operation-result.js');
  const { FileChangedError } = await import('../../src/node/errors.js');
  const { ConflictError } = await import('../../src/errors/errors.js');
  return { ...module, FileChangedError, ConflictError };
}

const bytes = (text: string) => new TextEncoder().encode(text);

function outcome(edit: Partial<{ -readonly [K in keyof OperationOutcome]: OperationOutcome[K] }>) {
  const plain: OperationOutcome = {
    status: 'no-op',
    command: Operation.Install,
    operation: Operation.Install,
    hooksFile: '/h/hooks.json',
    realPath: undefined,
    existed: true,
    before: bytes('{}\n'),
    after: bytes('{}\n'),
    receipt: null,
    error: undefined,
    hostPaths: undefined,
    generation: 0,
    settled: undefined,
    attempts: 1,
    metadata: { performed: true, writes: 'preserve' },
  };
  // A run's command is its operation unless the edit says disable or enable.
  return { ...plain, command: edit.operation ?? plain.command, ...edit } as OperationOutcome;
}

const HOST_PATHS: HostPathsJSON = { verified: true, vouched: false, checks: [] };

describe('operationResult', () => {
  // Red: a field dropped or not mapped to null, `changed` or the diff made when nothing changed.
  it('reports an unchanged file with no diff and nulls', async () => {
    const { operationResult } = await fresh();
    expect(await operationResult(outcome({}), null, false)).toEqual({
      status: 'no-op',
      command: 'install',
      operation: 'install',
      dryRun: false,
      hooksFile: '/h/hooks.json',
      realPath: null,
      changed: false,
      receipt: null,
      generation: 0,
      settled: null,
      hostPaths: null,
      metadata: { checked: true, why: null, writes: 'preserve' },
      diff: '',
      error: null,
      nextStep: null,
    } satisfies OperationResultJSON);
  });

  const STEP = { code: 'release', command: 'cursorhooks release', sentence: 'run release' };
  // Red: a set field not carried over (the next step among them), the diff not made, made from the wrong side, or decoded
  // wrongly; the error not turned into its JSON shape.
  it('carries every set field over and diffs what changed', async () => {
    const { operationResult, FileChangedError } = await fresh();
    const result = await operationResult(
      outcome({
        status: 'failed',
        operation: Operation.Update,
        realPath: '/data/hooks.json',
        existed: false,
        before: bytes(''),
        after: bytes('{"é":1}\n'),
        receipt: SAMPLE_RECEIPT,
        generation: 5,
        settled: 'back',
        error: new FileChangedError(),
        metadata: { performed: false, why: 'module-unloadable', writes: 'refuse' },
      }),
      HOST_PATHS,
      true,
      STEP,
    );
    expect(result).toEqual({
      status: 'failed',
      command: 'update',
      operation: 'update',
      dryRun: true,
      hooksFile: '/h/hooks.json',
      realPath: '/data/hooks.json',
      changed: true,
      receipt: SAMPLE_RECEIPT,
      generation: 5,
      settled: 'back',
      hostPaths: HOST_PATHS,
      metadata: { checked: false, why: 'module-unloadable', writes: 'refuse' },
      diff: ['--- /dev/null', '+++ /h/hooks.json', '@@ -0,0 +1,1 @@', '+{"é":1}', ''].join('\n'),
      error: {
        kind: 'changed',
        reason: 'file-changed',
        message: new FileChangedError().message,
      },
      nextStep: STEP,
    } satisfies OperationResultJSON);
  });

  // Red: a disable or enable reported as the remove or install it runs, so a host reading the
  // JSON cannot tell a disable from a remove.
  it.each([
    ['disable', Operation.Remove],
    ['enable', Operation.Install],
  ] as const)('names the command %s beside the operation it ran', async (intent, operation) => {
    const { operationResult, operationText } = await fresh();
    const result = await operationResult(
      outcome({ command: intent, operation }),
      null,
      false,
      null,
    );
    expect(result).toMatchObject({ command: intent, operation });
    expect(operationText(result, 'L')).toMatch(new RegExp(`^${intent}: `));
  });

  // Red: bytes that differ only past a shared prefix, or by length, counted as unchanged.
  it('counts a file changed when its bytes differ at all', async () => {
    const { operationResult } = await fresh();
    const grown = await operationResult(
      outcome({ before: bytes('{}\n'), after: bytes('{}\n\n') }),
      null,
      false,
    );
    expect(grown.changed).toBe(true);
    expect(grown.diff).toContain('--- /h/hooks.json\n+++ /h/hooks.json\n');
  });
});

const DONE: Readonly<Record<OperationStatus, string>> = {
  done: 'install: the hook file was written and the ledger committed',
  'no-op': 'install: the hook file already held this; nothing written to it',
  'dry-run': 'install: dry run: nothing was written; the diff shows what would be',
  refused: 'install: refused: nothing was written',
  failed: 'install: failed',
};

describe('operationText', () => {
  // Red: a status sentence reworded or emptied; the plain lines added to, dropped or reworded.
  it.each(Object.entries(DONE))('says what a %s run did', async (status, first) => {
    const { operationResult, operationText } = await fresh();
    const result = await operationResult(
      outcome({ status: status as OperationStatus }),
      null,
      false,
    );
    expect(operationText(result, '/h/ledger.json')).toBe(
      [
        first,
        'hooks file: /h/hooks.json',
        'ledger: /h/ledger.json, generation 0',
        '(no change to the hook file)',
        '',
      ].join('\n'),
    );
  });

  // Red: the error, real path, settlement, dry-run note, host paths or diff lines missing or
  // reworded.
  it('says the error, the real path, the settlement, the checks and the diff', async () => {
    const { operationResult, operationText, ConflictError } = await fresh();
    const result = await operationResult(
      outcome({
        status: 'refused',
        operation: Operation.Repair,
        realPath: '/data/hooks.json',
        before: bytes('{}\n'),
        after: bytes('{"a":1}\n'),
        generation: 2,
        settled: 'forward',
        error: new ConflictError('entry-modified' as never),
      }),
      { verified: true, vouched: false, checks: [] },
      true,
    );
    expect(operationText(result, '/h/ledger.json')).toBe(
      [
        'repair: refused: nothing was written',
        `  ${new ConflictError('entry-modified' as never).message} [entry-modified]`,
        'hooks file: /h/hooks.json',
        '  real path: /data/hooks.json',
        'an interrupted earlier write would be settled forward (it had landed)',
        'ledger: /h/ledger.json, generation 2 (unchanged: dry run)',
        'host path checks: all 0 passed',
        '--- /h/hooks.json',
        '+++ /h/hooks.json',
        '@@ -1,1 +1,1 @@',
        '-{}',
        '+{"a":1}',
        '',
      ].join('\n'),
    );
  });

  // Red: a settlement back described as forward, or a real write as a dry run; the real path
  // shown when it is the hook file itself.
  it('says a real run settled back, with no dry-run note and no real path repeated', async () => {
    const { operationResult, operationText } = await fresh();
    const result = await operationResult(
      outcome({ status: 'done', realPath: '/h/hooks.json', generation: 1, settled: 'back' }),
      null,
      false,
    );
    expect(operationText(result, 'L')).toBe(
      [
        'install: the hook file was written and the ledger committed',
        'hooks file: /h/hooks.json',
        'an interrupted earlier write was settled back (it had not landed)',
        'ledger: L, generation 1',
        '(no change to the hook file)',
        '',
      ].join('\n'),
    );
  });

  // Red: a write that dropped what it could not see, as accepted, reported like any other; or
  // the note shown when nothing was written.
  it('says the metadata loss was accepted when a write replaced files without seeing them', async () => {
    const { operationResult, operationText } = await fresh();
    const accepted = { performed: false, why: 'module-unloadable', writes: 'accept-loss' } as const;
    const written = await operationResult(
      outcome({ status: 'done', metadata: accepted }),
      null,
      false,
    );
    expect(written.metadata).toEqual({
      checked: false,
      why: 'module-unloadable',
      writes: 'accept-loss',
    });
    expect(operationText(written, 'L').split('\n')).toContain(
      'ACLs and extended attributes: loss accepted (--accept-metadata-loss): the optional @napi-rs/xattr module does not load, so any the replaced files had are gone',
    );
    const unwritten = await operationResult(
      outcome({ status: 'no-op', metadata: accepted }),
      null,
      false,
    );
    expect(operationText(unwritten, 'L')).not.toContain('loss accepted');
  });
});
