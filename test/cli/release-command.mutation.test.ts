// `cursorhooks release` as a user and a host read it: the text summary of each outcome line by
// line, the JSON result's fields, and a failure printed as a result before the error.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEXT_STEP_SENTENCES } from '../../src/node/status/status.js';
import { files, home, readHooks, specArgs, writeHooks } from './file-support.js';
import { cli } from './support.js';

describe('release', () => {
  it('says what each outcome did, in text, and names both files and the generation (red: a summary line is missing, misworded or from another outcome)', async () => {
    const where = home();
    writeHooks(where);
    const summary = (first: string, generation: number, last: string[] = []) =>
      [
        `release: ${first}`,
        `hooks file: ${where.hooks}`,
        `ledger: ${where.ledger}, generation ${generation}`,
        ...last,
        '',
      ].join('\n');
    expect(await cli(['release', ...files(where)])).toEqual({
      exitCode: 0,
      stdout: summary('nothing was owned or pending for this hook file; nothing changed', 0),
      stderr: '',
    });
    const installed = await cli(['install', ...files(where), ...specArgs(where.spec), '--json']);
    expect(installed.exitCode, installed.stderr).toBe(0);
    const document = readHooks(where);
    expect(await cli(['release', ...files(where)])).toEqual({
      exitCode: 0,
      stdout: summary('ownership ended; the hook file was not touched', 2, [
        'run status to see any entry still running this host command',
      ]),
      stderr: '',
    });
    expect(readHooks(where)).toBe(document);
    writeFileSync(where.ledger, 'not a ledger');
    expect(await cli(['release', ...files(where)])).toEqual({
      exitCode: 1,
      // The failure's way out, as status names it (red: a refusal printed no next step).
      stdout: summary('failed: nothing changed', 0, [
        `next step: fix-ledger: ${NEXT_STEP_SENTENCES['fix-ledger']}`,
      ]),
      stderr:
        'cursorhooks: the receipt ledger is not a well-formed cursorhooks ledger [ledger-malformed]\n',
    });
  });

  it('prints every field of the result as JSON, the released receipt included, and a failure`s error in it and on stderr (red: a field is dropped, renamed or taken from elsewhere)', async () => {
    const where = home();
    // A hook file under a regular file: no real path to report, and a failure.
    writeFileSync(join(where.dir, 'plain'), '');
    const hooksFile = join(where.dir, 'plain', 'hooks.json');
    const unresolved = await cli([
      'release',
      '--hooks-file',
      hooksFile,
      '--ledger',
      where.ledger,
      '--json',
    ]);
    expect(unresolved.exitCode).toBe(74);
    expect(JSON.parse(unresolved.stdout)).toMatchObject({
      status: 'failed',
      hooksFile,
      realPath: null,
      released: [],
      generation: 0,
      error: JSON.parse(unresolved.stderr).error,
    });
    writeHooks(where);
    await cli(['install', ...files(where), ...specArgs(where.spec), '--json']);
    const receipt = JSON.parse(readFileSync(where.ledger, 'utf8'));
    const done = await cli(['release', ...files(where), '--json']);
    expect(done.exitCode, done.stderr).toBe(0);
    const result = JSON.parse(done.stdout);
    expect(Object.keys(result)).toEqual([
      'status',
      'hooksFile',
      'realPath',
      'released',
      'generation',
      'error',
      'nextStep',
    ]);
    expect(result).toMatchObject({
      status: 'done',
      hooksFile: where.hooks,
      realPath: where.hooks,
      generation: 2,
      error: null,
    });
    expect(result.released).toHaveLength(1);
    expect(JSON.stringify(receipt)).toContain(JSON.stringify(result.released[0].entryDigest));
    writeFileSync(where.ledger, 'not a ledger');
    const failed = await cli(['release', ...files(where), '--json']);
    expect(failed.exitCode).toBe(1);
    const error = {
      kind: 'conflict',
      reason: 'ledger-malformed',
      message: 'the receipt ledger is not a well-formed cursorhooks ledger',
    };
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'failed', error });
    expect(JSON.parse(failed.stderr)).toEqual({ error });
  });
});
