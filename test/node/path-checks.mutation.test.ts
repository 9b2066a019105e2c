// The host path checks' edges the behaviour suite does not pin: the user id taken from the
// process (stubbed, since the suite may run as root, where 0 hides a wrong default) and an lstat
// rejection that is not an Error.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FAILED_DETAILS, NOT_PERFORMED_DETAILS } from '../../src/node/status/path-check-details.js';
import { checkHostPaths } from '../../src/node/status/path-checks.js';

const made: string[] = [];

function spec() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cursorhooks-paths-m-')));
  made.push(dir);
  const executable = join(dir, 'agent');
  const selector = join(dir, 'binding.json');
  writeFileSync(executable, '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(selector, '{}', { mode: 0o600 });
  return { executable, selector };
}

afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ownerOf = async (options: Parameters<typeof checkHostPaths>[1], s = spec()) =>
  (await checkHostPaths(s, options)).checks.find(
    (c) => c.role === 'selector' && c.check === 'owner',
  );

describe('the user id', () => {
  it('defaults to process.getuid(): a selector owned by someone else fails (red: the default uid is lost)', async () => {
    const s = spec();
    const mine = (await ownerOf({}, s))?.status;
    vi.spyOn(process, 'getuid').mockReturnValue(424242);
    const other = await ownerOf({}, s);
    expect(mine).toBe('passed');
    expect(other).toMatchObject({ status: 'failed', detail: FAILED_DETAILS.selectorNotOwned });
  });

  it('is null where the platform has no getuid, and the owner checks are not performed (red: a missing getuid throws)', async () => {
    const original = process.getuid;
    Object.defineProperty(process, 'getuid', {
      value: undefined,
      configurable: true,
      writable: true,
    });
    try {
      expect(await ownerOf({})).toMatchObject({
        status: 'not-performed',
        detail: NOT_PERFORMED_DETAILS.noUserId,
      });
    } finally {
      Object.defineProperty(process, 'getuid', {
        value: original,
        configurable: true,
        writable: true,
      });
    }
  });
});

describe('an lstat rejection that is not an Error', () => {
  it.each([
    ['a plain object with a code', { code: 'ENOENT' }],
    ['null', null],
  ])(
    'is unexaminable for %s (red: a code is trusted off a non-error, or reading it throws)',
    async (_, thrown) => {
      const s = spec();
      const report = await checkHostPaths(s, {
        fs: {
          lstat: async (path) => {
            if (path === s.selector) throw thrown;
            const { lstat } = await import('node:fs/promises');
            return lstat(path);
          },
        },
      });
      expect(
        report.checks.find((c) => c.role === 'selector' && c.check === 'regular-file'),
      ).toMatchObject({
        status: 'failed',
        detail: FAILED_DETAILS.unexaminable,
      });
    },
  );
});
