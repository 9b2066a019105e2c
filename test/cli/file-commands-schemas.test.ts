import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CliOutcome } from '../demo/lifecycle.js';
import { fileCli, home, install, specArgs, writeHooks } from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli } from './support.js';

/** stdout against the operation result schema; stderr, on failure, against the error schema. */
function checked(outcome: CliOutcome): { status: string } {
  const result = JSON.parse(outcome.stdout) as { status: string };
  expectSchema('operation-result', result);
  if (outcome.exitCode === 0) expect(outcome.stderr).toBe('');
  else expectSchema('error', JSON.parse(outcome.stderr));
  return result;
}

describe('the JSON Schemas of the file-level commands', () => {
  it('match every outcome of a whole lifecycle: dry-run, done, no-op, refused, failed (red: a result breaks its schema)', async () => {
    const where = home();
    writeHooks(where);
    const statuses = [
      checked(await install(where, '--dry-run')),
      checked(await install(where)),
      checked(await install(where)),
      checked(await fileCli('update', where, ...specArgs(where.otherSpec))),
      checked(await fileCli('repair', where)),
      checked(await fileCli('remove', where, '--dry-run')),
      checked(await fileCli('remove', where)),
      checked(await install(where)),
      checked(await fileCli('update', where, ...specArgs(where.otherSpec))),
    ].map((result) => result.status);
    expect(statuses).toEqual([
      'dry-run',
      'done',
      'no-op',
      'done',
      'no-op',
      'dry-run',
      'done',
      'done',
      'done',
    ]);
    writeFileSync(where.hooks, '{"version": 2}');
    expect(checked(await fileCli('remove', where)).status).toBe('refused');
    const broken = home();
    mkdirSync(broken.hooks);
    expect(checked(await install(broken)).status).toBe('failed');
  });

  it.each(['install', 'update', 'remove', 'repair', 'status'])(
    'describe %s in help --json (red: a new command breaks the help schema)',
    async (name) => {
      const outcome = await cli(['help', name, '--json']);
      expect(outcome.exitCode).toBe(0);
      expectSchema('help-result', JSON.parse(outcome.stdout));
    },
  );

  it('match the usage error of a file-level command (red: its usage errors leave the one shape)', async () => {
    const outcome = await cli(['install', '--json']);
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stdout).toBe('');
    expectSchema('error', JSON.parse(outcome.stderr));
  });
});
