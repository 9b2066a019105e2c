// What stands between the state's step and its write, as readStatus judges it in-process: a
// directory that refuses new files, a read-only hook file, a writer that cannot see metadata, a
// host path that failed its check, a lock name. The CLI and ways-out suites reach these too, but
// cost minutes a mutant in the mutation runs of status.ts.
import { chmodSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Operation } from '../../src/index.js';
import { beginPending } from '../../src/node/ledger/fence.js';
import { encodeLedger } from '../../src/node/ledger/ledger.js';
import type { HostPathCheck, HostPathChecker } from '../../src/node/status/path-report.js';
import { NEXT_STEP_SENTENCES } from '../../src/node/status/status.js';
import { disableHook } from '../../src/node/toggle.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { OTHER_SPEC, SHELL, SPEC } from '../planner/support.js';
import { FOREIGN, installed, status } from './status-support.js';
import {
  allChecksPassed,
  oneCheckFailed,
  operate,
  recordOf,
  tempDir,
  type Where,
  workspace,
} from './support.js';

const modify = (where: Where) =>
  writeFileSync(
    where.hooks,
    readFileSync(where.hooks, 'utf8').replace('"timeout":5', '"timeout":9'),
  );

afterEach(() => {
  vi.restoreAllMocks();
});

/** From here on, this process is judged as a user who owns nothing and is in no group. */
function asStranger(): void {
  vi.spyOn(process, 'getuid').mockReturnValue(4242);
  vi.spyOn(process, 'getgid').mockReturnValue(4242);
  vi.spyOn(process, 'getgroups').mockReturnValue([]);
}

/** A directory anyone may create files in (mkdtemp's 0o700 refuses a stranger). */
function openDir(): string {
  const dir = tempDir();
  chmodSync(dir, 0o777);
  return dir;
}

/** The hook file in one directory, the ledger in another, doctor's sources in a third. */
function split(hooksDir: string, ledgerDir: string): Where {
  return { dir: tempDir(), hooks: join(hooksDir, 'hooks.json'), ledger: join(ledgerDir, 'l.json') };
}

describe.skipIf(process.platform === 'win32')('a directory that refuses new files', () => {
  it('names make-directory-writable with the ledger`s directory when only it refuses (red: the ledger`s side files are not judged)', async () => {
    const closed = tempDir();
    const where = split(openDir(), closed);
    asStranger();
    const s = await status(where);
    expect(s.nextStep).toEqual({
      code: 'make-directory-writable',
      command: null,
      with: null,
      directory: closed,
      sentence: NEXT_STEP_SENTENCES['make-directory-writable'],
    });
  });

  it('names the hook file`s directory when it refuses (red: the hook file`s side files are not judged)', async () => {
    const closed = tempDir();
    asStranger();
    const s = await status(split(closed, openDir()));
    expect(s.nextStep).toMatchObject({ code: 'make-directory-writable', directory: closed });
  });

  it('judges the directory of the linked hook file and ledger, not the links` (red: the link`s directory is judged)', async () => {
    const links = openDir();
    const hooksReal = tempDir();
    writeFileSync(join(hooksReal, 'hooks.json'), FOREIGN);
    symlinkSync(join(hooksReal, 'hooks.json'), join(links, 'hooks.json'));
    asStranger();
    const s = await status(split(links, openDir()));
    expect(s.nextStep).toMatchObject({ code: 'make-directory-writable', directory: hooksReal });
    vi.restoreAllMocks();
    const ledgerReal = tempDir();
    const ledgerLinks = openDir();
    writeFileSync(join(ledgerReal, 'l.json'), encodeLedger(new Map()));
    symlinkSync(join(ledgerReal, 'l.json'), join(ledgerLinks, 'l.json'));
    asStranger();
    const t = await status(split(openDir(), ledgerLinks));
    expect(t.nextStep).toMatchObject({ code: 'make-directory-writable', directory: ledgerReal });
  });

  it('leaves release alone when only the hook file`s directory refuses: release writes only the ledger (red: release is judged as a hook-file write)', async () => {
    const hooksDir = tempDir();
    const where = split(hooksDir, openDir());
    writeFileSync(where.hooks, FOREIGN);
    expect((await operate(where, Operation.Install)).status).toBe('done');
    modify(where);
    asStranger();
    const s = await status(where);
    expect(s.nextStep).toMatchObject({ code: 'release', command: 'release' });
    expect('directory' in s.nextStep).toBe(false);
  });

  it('leaves none alone, judging no directory, when nothing needs writing (red: a closed directory turns nothing into a step)', async () => {
    const where = await installed();
    asStranger();
    expect((await status(where)).nextStep.code).toBe('none');
  });

  it('names a foreign lock first, with no directory, when both stand (red: the directory is named for another step)', async () => {
    const where = workspace();
    writeFileSync(`${where.hooks}.cursorhooks-lock`, '');
    asStranger();
    const s = await status(where);
    expect(s.nextStep.code).toBe('remove-lock');
    expect('directory' in s.nextStep).toBe(false);
  });

  it('names no directory for a refused directory-not-writable it cannot see (red: an undefined directory is reported)', async () => {
    const where = await installed();
    const s = await status(where, {
      intent: { command: 'install', refused: 'directory-not-writable' },
    });
    expect(s.nextStep.code).toBe('make-directory-writable');
    expect('directory' in s.nextStep).toBe(false);
  });
});

describe('locks that every write waits for or recovers', () => {
  it('names install, not remove-lock, beside a live cursorhooks holder or a stale one (red: every lock reads as foreign)', async () => {
    const where = workspace();
    const live = { pid: process.ppid, hostname: hostname(), acquiredAt: 'x', nonce: 'n' };
    writeFileSync(`${where.hooks}.cursorhooks-lock`, JSON.stringify(live));
    const s = await status(where);
    expect(s.locks.map((lock) => lock.state)).toEqual(['held']);
    expect(s.nextStep.code).toBe('install');
  });
});

describe.skipIf(process.platform === 'win32')('a read-only hook file', () => {
  it('leaves none alone: nothing needs writing (red: an owned read-only file is told to be made writable)', async () => {
    const where = await installed();
    chmodSync(where.hooks, 0o444);
    expect((await status(where)).nextStep.code).toBe('none');
  });

  it('leaves release alone: release does not write the hook file (red: release is refused as a hook-file write)', async () => {
    const where = await installed();
    modify(where);
    chmodSync(where.hooks, 0o444);
    expect((await status(where)).nextStep).toMatchObject({ code: 'release', command: 'release' });
  });
});

describe.skipIf(process.platform === 'win32')('a writer that cannot see ACLs', () => {
  const blind: FsSeam = { ...nodeFs, xattrsLoaded: async () => false };

  it('names install for a fresh home: nothing exists to replace (red: creating a file is refused)', async () => {
    const s = await status(workspace(), { fs: blind });
    expect(s.metadata).toMatchObject({ writes: 'refuse' });
    expect(s.nextStep.code).toBe('install');
  });

  it.each([
    ['a hook file with bytes', (where: Where) => writeFileSync(where.hooks, FOREIGN)],
    ['an empty hook file', (where: Where) => writeFileSync(where.hooks, '')],
    ['an existing ledger', (where: Where) => writeFileSync(where.ledger, encodeLedger(new Map()))],
  ])(
    'names fix-metadata-module beside %s (red: the install printed refuses metadata-not-preserved)',
    async (_, plant) => {
      const where = workspace();
      plant(where);
      const s = await status(where, { fs: blind });
      expect(s.nextStep).toMatchObject({ code: 'fix-metadata-module', command: null });
    },
  );

  it('names install when the host accepts the loss (red: an accepted loss still blocks)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const s = await status(where, { fs: blind, acceptMetadataLoss: true });
    expect(s.metadata).toMatchObject({ writes: 'accept-loss' });
    expect(s.nextStep.code).toBe('install');
  });

  it('leaves none alone (red: a step that writes nothing is blocked)', async () => {
    expect((await status(await installed(), { fs: blind })).nextStep.code).toBe('none');
  });
});

describe('host path checks', () => {
  it('reports the receipt`s checks and names fix-host-paths when the owned entry`s path failed (red: a broken entry reads as nothing to do)', async () => {
    const where = await installed();
    const s = await status(where, { checkHostPaths: oneCheckFailed });
    expect(s.hostPaths).toEqual({
      source: 'receipt',
      spec: SPEC,
      report: await oneCheckFailed(SPEC),
    });
    expect(s.nextStep).toMatchObject({ code: 'fix-host-paths', command: null });
  });

  it('checks the spec given over the receipt`s (red: the given spec is ignored)', async () => {
    const where = await installed();
    const s = await status(where, { checkHostPaths: allChecksPassed, spec: OTHER_SPEC });
    expect(s.hostPaths).toEqual({
      source: 'given',
      spec: OTHER_SPEC,
      report: { verified: true, checks: [] },
    });
    expect(s.nextStep.code).toBe('none');
  });

  it('names none when every check passed (red: any check reads as failed)', async () => {
    const passed: HostPathChecker = async (spec) => ({
      verified: true,
      checks: [{ ...(await oneCheckFailed(spec)).checks[0], status: 'passed' } as HostPathCheck],
    });
    const s = await status(await installed(), { checkHostPaths: passed });
    expect(s.hostPaths?.report.checks).toHaveLength(1);
    expect(s.nextStep.code).toBe('none');
  });

  it('reports no checks when none are asked for, or no spec is known (red: an empty report is invented)', async () => {
    const where = await installed();
    expect('hostPaths' in (await status(where))).toBe(false);
    const fresh = await status(workspace(), { checkHostPaths: oneCheckFailed });
    expect('hostPaths' in fresh).toBe(false);
    expect(fresh.nextStep.code).toBe('install');
  });

  it('names fix-host-paths over an install that would add the failing path (red: the printed install refuses)', async () => {
    const s = await status(workspace(), {
      checkHostPaths: oneCheckFailed,
      spec: SPEC,
      shell: SHELL,
    });
    expect(s.nextStep).toMatchObject({ code: 'fix-host-paths', command: null, with: null });
  });

  it('leaves release alone: it adds no path (red: release is blocked by a path it never writes)', async () => {
    const where = await installed();
    modify(where);
    const s = await status(where, { checkHostPaths: oneCheckFailed });
    expect(s.nextStep).toMatchObject({ code: 'release', command: 'release' });
  });

  it('leaves an interrupted remove`s finish alone: a remove adds no path (red: the remove is blocked)', async () => {
    const where = await installed();
    const pending = beginPending(await recordOf(where), Operation.Remove, null);
    writeFileSync(where.ledger, encodeLedger(new Map([[where.hooks, pending]])));
    writeFileSync(where.hooks, FOREIGN);
    const s = await status(where, { checkHostPaths: oneCheckFailed, spec: SPEC });
    expect(s.nextStep).toMatchObject({ code: 'finish', command: 'remove' });
  });

  it('leaves a disabled hook`s none alone: no entry runs the path (red: a path nothing runs is reported broken)', async () => {
    const where = await installed();
    const toggle = {
      hooksFile: where.hooks,
      ledger: where.ledger,
      checkHostPaths: allChecksPassed,
    };
    expect((await disableHook(toggle)).status).toBe('done');
    const s = await status(where, { checkHostPaths: oneCheckFailed, spec: SPEC });
    expect(s.owned.state).toBe('disabled');
    expect(s.nextStep.code).toBe('none');
  });
});

describe('the spec update moves to', () => {
  it('is none for a refused update with no spec given, though the receipt knows one (red: update repeats the old spec)', async () => {
    const where = await installed();
    const s = await status(where, { intent: { command: 'update', refused: 'spec-mismatch' } });
    expect(s.nextStep).toMatchObject({ code: 'update', command: 'update', with: null });
  });
});
