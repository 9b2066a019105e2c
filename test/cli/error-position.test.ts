// The CLI prints where a document refusal is (issue 20): `at` in the JSON error, "at line L,
// column C (byte O)" in the text line, both for plan's request and for the hook file.

import { describe, expect, it } from 'vitest';
import { errorLine, refusalJSON } from '../../src/cli/error-output.js';
import { UnsupportedError } from '../../src/errors/errors.js';
import { files, home, install, specArgs, writeHooks } from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli as cliRun, failure, installRequest, plan } from './support.js';

// A stray comma on line 3 of a CRLF document, after a multi-byte character on its line.
const BROKEN = '{\r\n  "version": 1,\r\n  "hooks": {"é": [],}\r\n}\r\n';
const AT = { offset: 40, line: 3, column: 20 };

describe('positions in CLI errors', () => {
  it('plan prints the refusal with at, valid against the error schema (red: the position is lost on the way out or breaks the schema)', async () => {
    const outcome = await plan(installRequest(BROKEN));
    expect(failure(outcome, 1)).toEqual({
      kind: 'unsupported',
      reason: 'json-syntax',
      message: new UnsupportedError('json-syntax').message,
      at: AT,
    });
    expectSchema('error', JSON.parse(outcome.stderr));
  });

  it('install on a broken hook file carries at in its result and on stderr, valid against both schemas (red: the file commands drop the position)', async () => {
    const where = home();
    writeHooks(where, BROKEN);
    const outcome = await install(where);
    expect(outcome.exitCode).toBe(1);
    const result = JSON.parse(outcome.stdout) as { error: { at?: unknown } };
    expect(result.error.at).toEqual(AT);
    expectSchema('operation-result', result);
    expectSchema('error', JSON.parse(outcome.stderr));
  });

  it('install in text mode names line, column and byte on its one stderr line (red: a text-mode user gets no position)', async () => {
    const where = home();
    writeHooks(where, BROKEN);
    const outcome = await cliRun(['install', ...files(where), ...specArgs(where.spec)]);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr).toContain(' at line 3, column 20 (byte 40)');
    expect(outcome.stderr).toMatch(/\[json-syntax\]\n$/u);
  });

  it('errorLine prints no position for an error without one (red: a placeholder position is printed)', () => {
    const line = errorLine(refusalJSON(new UnsupportedError('version-missing')));
    expect(line).not.toContain(' at line');
    expect(line).toBe(
      `cursorhooks: ${new UnsupportedError('version-missing').message} [version-missing]\n`,
    );
  });
});
