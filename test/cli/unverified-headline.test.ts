// executable-unverified names the check that decided it in its headline (role, check, path and
// the check's fixed sentence), in the error line and the error JSON, not only in the long list.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { files, home, writeHooks } from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli, SHELL } from './support.js';

function installMissing() {
  const where = home();
  writeHooks(where);
  const missing = join(where.dir, 'agent bin', 'not-there');
  const spec = ['--executable', missing, '--selector', where.spec.selector, '--shell', SHELL];
  return { missing, args: ['install', ...files(where), ...spec] };
}

describe('executable-unverified headline', () => {
  // Red before: the error said only "the host has not attested ..."; the missing file was
  // named in the nineteenth line of the check list.
  it('the text error line names the executable, the failed check, its path and why', async () => {
    const { missing, args } = installMissing();
    const outcome = await cli(args);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr).toBe(
      `cursorhooks: the host has not attested its executable and selector checks (executable regular-file: ${missing}; Nothing exists at this path.) [executable-unverified]\n`,
    );
  });

  // Red before: the error JSON carried kind, reason and message only.
  it('the error JSON carries role, path, check and detail, in the error schema, on stderr and in the result', async () => {
    const { missing, args } = installMissing();
    const outcome = await cli([...args, '--json']);
    const { error } = JSON.parse(outcome.stderr);
    expectSchema('error', { error });
    expect(error).toEqual({
      kind: 'conflict',
      reason: 'executable-unverified',
      message: 'the host has not attested its executable and selector checks',
      role: 'executable',
      path: missing,
      check: 'regular-file',
      detail: 'Nothing exists at this path.',
    });
    const result = JSON.parse(outcome.stdout);
    expectSchema('operation-result', result);
    expect(result.error).toEqual(error);
  });
});
