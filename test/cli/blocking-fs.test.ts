// The CLI is one call in its own process, with nothing else to run while a file call waits, so
// every kit call it makes takes the synchronous seam. Each kit entry point is watched (still
// doing its real work on a temporary home) and the seam it was handed is read back.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { release } from '../../src/node/ledger/release.js';
import {
  cancelQualification,
  finishQualification,
  startQualification,
} from '../../src/node/qualify/probe.js';
import { qualificationStatus } from '../../src/node/qualify/status.js';
import { checkHostPaths } from '../../src/node/status/path-checks.js';
import { readStatus } from '../../src/node/status/status.js';
import { blockingFs } from '../../src/node/write/fs-seam.js';
import { fileCli, home, install, specArgs } from './file-support.js';
import { cli } from './support.js';

vi.mock('../../src/node/status/status.js', async (original) => {
  const kit = await original<typeof import('../../src/node/status/status.js')>();
  return { ...kit, readStatus: vi.fn(kit.readStatus) };
});
vi.mock('../../src/node/ledger/release.js', async (original) => {
  const kit = await original<typeof import('../../src/node/ledger/release.js')>();
  return { ...kit, release: vi.fn(kit.release) };
});
vi.mock('../../src/node/status/path-checks.js', async (original) => {
  const kit = await original<typeof import('../../src/node/status/path-checks.js')>();
  return { ...kit, checkHostPaths: vi.fn(kit.checkHostPaths) };
});
vi.mock('../../src/node/qualify/status.js', async (original) => {
  const kit = await original<typeof import('../../src/node/qualify/status.js')>();
  return { ...kit, qualificationStatus: vi.fn(kit.qualificationStatus) };
});
vi.mock('../../src/node/qualify/probe.js', async (original) => {
  const kit = await original<typeof import('../../src/node/qualify/probe.js')>();
  return {
    ...kit,
    startQualification: vi.fn(kit.startQualification),
    finishQualification: vi.fn(kit.finishQualification),
    cancelQualification: vi.fn(kit.cancelQualification),
  };
});

afterEach(() => {
  vi.clearAllMocks();
});

/** The `fs` option of every call the watched kit function was given. */
const seamsGiven = (fn: unknown) =>
  vi.mocked(fn as (options: { fs?: unknown }) => unknown).mock.calls.map(([options]) => options.fs);

describe('the seam the CLI hands the kit', () => {
  it('status, the host path checks of install and status, and release take the synchronous seam (red: a file command goes through the thread pool, a round trip per call)', async () => {
    const where = home();
    await install(where);
    await fileCli('status', where, ...specArgs(where.spec));
    await fileCli('release', where);
    expect(seamsGiven(readStatus)).toEqual([blockingFs]);
    expect(seamsGiven(release)).toEqual([blockingFs]);
    const checks = vi.mocked(checkHostPaths).mock.calls.map(([, options]) => options?.fs);
    expect(checks).toEqual([blockingFs, blockingFs]);
  });

  it('qualify start, status, finish and cancel take the synchronous seam (red: the qualification commands go through the thread pool)', async () => {
    const where = home();
    const stateDir = join(where.dir, 'state');
    const start = ['qualify', 'start', '--state-dir', stateDir, '--hooks-file', where.hooks];
    expect((await cli([...start, '--family', 'posix-single-quote'])).exitCode).toBe(0);
    await cli(['qualify', 'status', '--state-dir', stateDir]);
    await cli(['qualify', 'finish', '--state-dir', stateDir, '--out', join(stateDir, 'r.json')]);
    await cli(['qualify', 'cancel', '--state-dir', stateDir]);
    expect(seamsGiven(startQualification)).toEqual([blockingFs]);
    expect(seamsGiven(qualificationStatus)).toEqual([blockingFs]);
    expect(seamsGiven(finishQualification)).toEqual([blockingFs]);
    expect(seamsGiven(cancelQualification)).toEqual([blockingFs]);
  });
});
