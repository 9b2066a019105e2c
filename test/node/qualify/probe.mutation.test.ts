// The probe lifecycle's edges the end-to-end suite does not pin: the exact view and state start
// writes, what each refusal and failure reports (and keeps), the lock and its timeout, finish's
// options and its resumption from `finishing`, cancel from every phase, and the probe entry taken
// out after a start that died mid-install. Invocations are recorded in-process through
// recordProbeInvocation (the same layout the script writes), so no shell runs here.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { UnsupportedError } from '../../../src/errors/errors.js';
import { HostIOError } from '../../../src/node/errors.js';
import { readLedger } from '../../../src/node/ledger/ledger.js';
import { acquireLock, releaseLock } from '../../../src/node/lock/lock.js';
import { probeLayout } from '../../../src/node/qualify/layout.js';
import {
  cancelQualification,
  type FinishQualificationOptions,
  finishQualification,
  recordBytes,
  type StartQualificationOptions,
  startQualification,
} from '../../../src/node/qualify/probe.js';
import { probeContract } from '../../../src/node/qualify/probe-contract.js';
import { recordProbeInvocation } from '../../../src/node/qualify/recording.js';
import { type FsSeam, nodeFs } from '../../../src/node/write/fs-seam.js';
import { Operation } from '../../../src/planner/operation.js';
import { type GrammarFamily, grammarFamily } from '../../../src/shell/families.js';
import { stopArgv } from '../../../src/shell/stop-invocation.js';
import { type ProbeHome, probeHome, USER_HOOKS } from '../qualify-support.js';
import { allChecksPassed, errno, isDataTemp, oneCheckFailed, wrapSeam } from '../support.js';

const POSIX = 'posix-single-quote';
const FAMILY = grammarFamily(POSIX) as GrammarFamily;
const PAYLOAD = '{"hook_event_name":"stop","cursor_version":"3.24.0"}';

const start = (where: ProbeHome, more: Partial<StartQualificationOptions> = {}) =>
  startQualification({
    stateDir: where.stateDir,
    hooksFile: where.hooksFile,
    family: POSIX,
    checkHostPaths: allChecksPassed,
    ...more,
  });

const finish = (where: ProbeHome, more: Partial<FinishQualificationOptions> = {}) =>
  finishQualification({ stateDir: where.stateDir, out: where.out, ...more });

const cancel = (where: ProbeHome, fs?: FsSeam) =>
  cancelQualification({ stateDir: where.stateDir, ...(fs === undefined ? {} : { fs }) });

/** Cursor running the probe's command faithfully (or with `argv`), recorded in-process. */
async function record(argv: readonly string[], stdin = PAYLOAD, cwd = '/home/u/.cursor') {
  expect((await recordProbeInvocation({ argv, stdin, cwd, env: {} })).recorded).toBe(true);
}

const stateOf = (where: ProbeHome) =>
  JSON.parse(readFileSync(join(where.stateDir, 'qualification.json'), 'utf8'));

/** The real seam, failing `call` with `code` on paths `where` accepts. */
const failingOn = (call: keyof FsSeam, code: string, where: (path: string) => boolean): FsSeam =>
  wrapSeam((name, path) => {
    if (name === call && path !== undefined && where(path)) throw errno(code);
  });

async function started(where: ProbeHome): Promise<readonly string[]> {
  const outcome = await start(where);
  expect(outcome.error).toBeUndefined();
  return outcome.probe?.argv ?? [];
}

describe('startQualification', () => {
  it('reports the whole probe view and writes the waiting state (red: a field of the view or the state is wrong)', async () => {
    const where = probeHome();
    const before = Date.now();
    const outcome = await start(where);
    const layout = probeLayout(where.stateDir, FAMILY);
    const stop = stopArgv(layout.scriptRecorder, layout.binding);
    const command = probeContract(FAMILY, layout.extraTokens).render(stop);
    expect(outcome.status).toBe('done');
    expect(outcome.error).toBeUndefined();
    expect(outcome.install?.status).toBe('done');
    expect(outcome.probe).toEqual({
      phase: 'waiting',
      family: POSIX,
      hooksFile: where.hooksFile,
      directory: layout.probeDir,
      recorder: layout.scriptRecorder,
      binding: layout.binding,
      argv: [...stop, ...layout.extraTokens],
      command,
      startedAt: expect.any(String),
    });
    const startedAt = Date.parse(outcome.probe?.startedAt ?? '');
    expect(startedAt).toBeGreaterThanOrEqual(before - 1);
    expect(startedAt).toBeLessThanOrEqual(Date.now());
    expect(outcome.probe?.startedAt).toBe(new Date(startedAt).toISOString());
    expect(stateOf(where)).toEqual({
      version: 1,
      phase: 'waiting',
      family: POSIX,
      hooksFile: where.hooksFile,
      hooksExisted: true,
      recorder: layout.scriptRecorder,
      argv: outcome.probe?.argv,
      command,
      startedAt: outcome.probe?.startedAt,
      finishing: null,
    });
    // The entry installed is the probe's command, and the start bytes are kept.
    expect(where.hooks()).toContain(JSON.stringify(command).slice(1, -1));
    expect(readFileSync(layout.startFile, 'utf8')).toBe(USER_HOOKS);
    expect(existsSync(layout.scriptRecorder)).toBe(true);
  });

  it('a hook file that does not exist yet: hooksExisted false and no start file (red: a start file of nothing)', async () => {
    const where = probeHome();
    rmSync(where.hooksFile);
    await started(where);
    expect(stateOf(where).hooksExisted).toBe(false);
    expect(existsSync(probeLayout(where.stateDir, FAMILY).startFile)).toBe(false);
  });

  it('a host recorder is the entry executable and no script is written (red: the host recorder ignored, or the kit script written anyway)', async () => {
    const where = probeHome();
    const recorder = join(where.home, 'host recorder');
    const outcome = await start(where, { recorder });
    expect(outcome.error).toBeUndefined();
    expect(outcome.probe?.recorder).toBe(recorder);
    expect(outcome.probe?.argv[0]).toBe(recorder);
    expect(existsSync(probeLayout(where.stateDir, FAMILY).scriptRecorder)).toBe(false);
  });

  it('makes the state directory private, 0700 (red: the lock makes it 0755 first)', async () => {
    const where = probeHome();
    await started(where);
    expect(statSync(where.stateDir).mode & 0o777).toBe(0o700);
  });

  it('a recorder path the family cannot use is refused before any state is written (red: a probe half made, then refused by the planner)', async () => {
    const where = probeHome();
    const outcome = await start(where, { recorder: 'relative/recorder' });
    expect(outcome).toMatchObject({ status: 'refused', probe: null, install: undefined });
    expect(outcome.error?.reason).toBe('path-not-absolute');
    expect(readdirSync(where.stateDir)).toEqual([]);
  });

  it('a binding path the family cannot use is refused before any state is written (red: only the planner sees it)', async () => {
    const where = probeHome();
    const outcome = await startQualification({
      stateDir: join(where.home, 'state $HOME'),
      hooksFile: where.hooksFile,
      family: POSIX,
      recorder: join(where.home, 'recorder'),
      checkHostPaths: allChecksPassed,
    });
    expect(outcome).toMatchObject({ status: 'refused', probe: null, install: undefined });
    expect(outcome.error?.reason).toBe('argv-forbidden-character');
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('the Windows family on Linux is another platform, the POSIX family on Linux is this one (red: the platform check inverted)', async () => {
    const where = probeHome();
    const outcome = await start(where, { family: 'powershell-stop', platform: 'linux' });
    expect(outcome).toMatchObject({ status: 'refused', probe: null, install: undefined });
    expect(outcome.error?.reason).toBe('qualify-family-other-platform');
    expect(outcome.error).toBeInstanceOf(UnsupportedError);
    expect((await start(where, { platform: 'linux' })).status).toBe('done');
  });

  it('the Windows family on win32 with a recorder gets past the recorder check (red: a recorder is required even when given)', async () => {
    const where = probeHome();
    const outcome = await start(where, {
      family: 'powershell-stop',
      platform: 'win32',
      recorder: 'C:\\host\\recorder.exe',
    });
    // It goes on to the path checks, which a Linux state directory cannot pass.
    expect(outcome.error?.reason).toBe('path-forward-slash');
  });

  it('the recorder is checked as the executable, before the binding (red: a recorder the family cannot run gets past its own check)', async () => {
    const where = probeHome();
    const outcome = await start(where, {
      family: 'powershell-stop',
      platform: 'win32',
      recorder: 'C:\\host\\recorder.txt',
    });
    expect(outcome).toMatchObject({ status: 'refused', probe: null, install: undefined });
    expect(outcome.error?.reason).toBe('executable-not-exe');
  });

  it('an install the lifecycle refuses leaves nothing behind and reports the install (red: a refused start leaves a probe)', async () => {
    const where = probeHome();
    const outcome = await start(where, { checkHostPaths: oneCheckFailed });
    expect(outcome.status).toBe('refused');
    expect(outcome.install?.status).toBe('refused');
    expect(outcome.error).toBe(outcome.install?.error);
    expect(outcome.probe?.phase).toBe('starting');
    expect(where.hooks()).toBe(USER_HOOKS);
    expect(existsSync(where.stateDir)).toBe(true);
    expect(readdirSync(where.stateDir).filter((n) => !n.includes('lock'))).toEqual([]);
  });

  it('an install that fails keeps the state in starting, which cancel clears (red: a half-made probe with no way out)', async () => {
    const where = probeHome();
    // The probe ledger cannot be written: the install fails before anything is recorded.
    const fs = failingOn('open', 'EIO', (path) => path.includes('probe-ledger.json.'));
    const outcome = await start(where, { fs });
    expect(outcome.status).toBe('failed');
    expect(outcome.install?.status).toBe('failed');
    expect(outcome.probe?.phase).toBe('starting');
    expect(stateOf(where).phase).toBe('starting');
    // No ledger record: cancel has no entry to take out, and clears the rest.
    const cancelled = await cancel(where);
    expect(cancelled.error).toBeUndefined();
    expect(cancelled.status).toBe('done');
    expect(where.hooks()).toBe(USER_HOOKS);
    expect(existsSync(join(where.stateDir, 'qualification.json'))).toBe(false);
  });

  /** The probe ledger holds an Install pending with no receipt, and cancel gives the user's file back. */
  async function expectPendingInstallCancelled(
    where: ReturnType<typeof probeHome>,
  ): Promise<ReturnType<typeof probeLayout>> {
    const layout = probeLayout(where.stateDir, FAMILY);
    const [entry] = (await readLedger(layout.ledger, { fs: nodeFs })).records.values();
    expect(entry?.receipt).toBeNull();
    expect(entry?.pending?.operation).toBe(Operation.Install);
    const cancelled = await cancel(where);
    expect(cancelled.error).toBeUndefined();
    expect(where.hooks()).toBe(USER_HOOKS);
    return layout;
  }

  it('a start killed mid-install (pending Install in the probe ledger) is settled and taken out by cancel (red: cancel refuses or leaves the entry)', async () => {
    const where = probeHome();
    let ledgerWritten = false;
    // Once the probe ledger records the pending install, the hook file can be neither swapped
    // nor read back, so the pending record stays (the hook file's lock still works).
    const fs = wrapSeam((name, path) => {
      if (name === 'rename' && path?.includes('probe-ledger.json.')) ledgerWritten = true;
      else if (!ledgerWritten) return;
      else if (name === 'rename' && path?.startsWith(where.hooksFile)) throw errno('EIO');
      else if (name === 'open' && path === where.hooksFile) throw errno('EIO');
    });
    const outcome = await start(where, { fs });
    expect(outcome.status).toBe('failed');
    const layout = await expectPendingInstallCancelled(where);
    expect(existsSync(layout.stateFile)).toBe(false);
  });

  it('a start killed after the entry went in but before the ledger settled: cancel settles it forward and takes the entry out (red: a pending install with no receipt is taken for nothing to remove)', async () => {
    const where = probeHome();
    let swapped = false;
    // The hook file's swap succeeds; every probe ledger write after it fails.
    const fs = wrapSeam((name, path) => {
      if (name === 'rename' && path?.startsWith(where.hooksFile)) swapped = true;
      else if (
        swapped &&
        name === 'open' &&
        path?.includes('probe-ledger.json.') &&
        isDataTemp(path)
      ) {
        throw errno('EIO');
      }
    });
    const outcome = await start(where, { fs });
    expect(outcome.status).toBe('failed');
    expect(where.hooks()).not.toBe(USER_HOOKS);
    await expectPendingInstallCancelled(where);
  });

  it('a system failure before the lock is a failed outcome naming the state directory (red: thrown, refused, or no path)', async () => {
    const where = probeHome();
    const fs = failingOn('mkdir', 'EACCES', (path) => path === where.stateDir);
    const outcome = await start(where, { fs });
    expect(outcome.status).toBe('failed');
    expect(outcome.probe).toBeNull();
    expect(outcome.install).toBeUndefined();
    expect(outcome.error).toBeInstanceOf(HostIOError);
    expect(outcome.error).toMatchObject({
      reason: 'permission-denied',
      code: 'EACCES',
      path: where.stateDir,
      role: 'probe',
    });
  });

  it('a bug (an error that is neither ours nor a system call`s) is thrown, not reported (red: a bug passed off as a failure)', async () => {
    const where = probeHome();
    const fs = wrapSeam((name) => {
      if (name === 'mkdir') throw new TypeError('a bug');
    });
    await expect(start(where, { fs })).rejects.toThrow('a bug');
    await expect(finish(where, { fs })).rejects.toThrow('a bug');
    await expect(cancel(where, fs)).rejects.toThrow('a bug');
  });

  it('waits for the lock in <state dir>/qualification at most lockTimeoutMs (red: another lock, or the timeout ignored)', async () => {
    const where = probeHome(); // a state directory whose name holds .json: only the file's suffix goes
    const stateDir = join(where.home, 'state.json.d');
    mkdirSync(stateDir, { mode: 0o700 });
    const target = join(stateDir, 'qualification');
    const owner = await acquireLock(target, nodeFs, 1000);
    // Each try to take the lock links a staging file to its name: a timeout of 0 tries once.
    let tries = 0;
    const fs = wrapSeam((name, path) => {
      if (name === 'link' && path?.startsWith(`${target}.cursorhooks-lock-`)) tries++;
    });
    try {
      const outcome = await startQualification({
        stateDir,
        hooksFile: where.hooksFile,
        family: POSIX,
        checkHostPaths: allChecksPassed,
        lockTimeoutMs: 0,
        fs,
      });
      expect(outcome.status).toBe('failed');
      expect(outcome.error?.reason).toBe('lock-timeout');
      expect(tries).toBe(1);
      for (const other of [
        finishQualification({ stateDir, out: where.out, lockTimeoutMs: 0 }),
        cancelQualification({ stateDir, lockTimeoutMs: 0 }),
      ]) {
        expect((await other).error?.reason).toBe('lock-timeout');
      }
    } finally {
      await releaseLock(target, owner, nodeFs);
    }
    expect(where.hooks()).toBe(USER_HOOKS);
  });
});

describe('finishQualification', () => {
  it('nothing started: qualify-not-started, refused, no probe (red: a finish out of nothing)', async () => {
    const where = probeHome();
    expect(await finish(where)).toEqual({
      status: 'refused',
      probe: null,
      record: null,
      out: null,
      invocations: [],
      error: expect.objectContaining({ reason: 'qualify-not-started' }),
    });
  });

  it('uses the given id, platform, arch and date, reports the invocations, and writes the record as indented JSON (red: an option ignored or the bytes differ)', async () => {
    const where = probeHome();
    const argv = await started(where);
    await record(argv);
    const finished = await finish(where, {
      id: 'my-probe.1',
      platform: 'plan9',
      arch: 'mips',
      now: () => new Date('2026-01-02T03:04:05.000Z'),
    });
    expect(finished.error).toBeUndefined();
    expect(finished.status).toBe('done');
    expect(finished.out).toBe(where.out);
    expect(finished.record).toMatchObject({
      id: 'my-probe.1',
      evidence: { platform: 'plan9', arch: 'mips', date: '2026-01-02T03:04:05.000Z' },
    });
    expect(finished.probe?.phase).toBe('finishing');
    expect(finished.invocations).toHaveLength(1);
    expect(finished.invocations[0]).toMatchObject({ matched: true });
    expect(finished.invocations[0]?.recording).toMatch(/^rec-/);
    const written = readFileSync(where.out, 'utf8');
    expect(written).toBe(`${JSON.stringify(finished.record, null, 2)}\n`);
    expect(new TextDecoder().decode(recordBytes(finished.record as never))).toBe(written);
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('defaults platform, arch and the date to this host and now (red: a record of another host)', async () => {
    const where = probeHome();
    await record(await started(where));
    const before = Date.now();
    const finished = await finish(where);
    const { evidence, id } = finished.record ?? ({} as never);
    expect(evidence.platform).toBe(process.platform);
    expect(evidence.arch).toBe(process.arch);
    expect(id).toBe(`cursor-3.24.0-${process.platform}-posix-single-quote`);
    const date = Date.parse(evidence.date ?? '');
    expect(date).toBeGreaterThanOrEqual(before - 1);
    expect(date).toBeLessThanOrEqual(Date.now());
  });

  it('refuses when any one of two invocations differs, with both reports (red: one faithful launch hides a mangled one)', async () => {
    const where = probeHome();
    const argv = await started(where);
    await record(argv);
    await record(argv.filter((token) => token !== ''));
    const finished = await finish(where);
    expect(finished.status).toBe('refused');
    expect(finished.error?.reason).toBe('probe-argv-mismatch');
    expect(finished.invocations.map((report) => report.matched).sort()).toEqual([false, true]);
    expect(existsSync(where.out)).toBe(false);
    expect(finished.probe?.phase).toBe('waiting');
  });

  it.each([
    ['starting', 'qualify-start-interrupted'],
    ['cancelling', 'qualify-cancel-interrupted'],
  ])(
    'a probe in %s: %s, with its view (red: finish goes on over a half-made or half-removed probe)',
    async (phase, reason) => {
      const where = probeHome();
      await record(await started(where));
      const stateFile = join(where.stateDir, 'qualification.json');
      writeFileSync(stateFile, JSON.stringify({ ...stateOf(where), phase }));
      const finished = await finish(where);
      expect(finished.status).toBe('refused');
      expect(finished.error?.reason).toBe(reason);
      expect(finished.probe?.phase).toBe(phase);
      expect(existsSync(where.out)).toBe(false);
    },
  );

  /** An --out directory fails finish as the record file; an empty --out is opened once. */
  async function expectOutReadOnce(where: ReturnType<typeof probeHome>): Promise<void> {
    mkdirSync(where.out);
    const failed = await finish(where);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ path: where.out, role: 'record' });
    rmSync(where.out, { recursive: true });
    writeFileSync(where.out, '');
    let opens = 0;
    const fs = wrapSeam((name, path) => {
      if (name === 'open' && path === where.out) opens++;
    });
    expect((await finish(where, { fs })).error?.reason).toBe('qualify-out-exists');
    expect(opens).toBe(1);
  }

  it('an --out that cannot be read is a failure about the record file; an empty one is read once, without waiting for a writer (red: the role or path lost, or a settle wait)', async () => {
    const where = probeHome();
    await record(await started(where));
    await expectOutReadOnce(where);
  });

  it('resumed, an --out that cannot be read is a failure about the record file; an empty one is read once (red: the role or path lost, or a settle wait)', async () => {
    const where = probeHome();
    await record(await started(where));
    const failing = failingOn('rename', 'EIO', (path) =>
      path.startsWith(join(where.home, '.cursor')),
    );
    expect((await finish(where, { fs: failing })).status).toBe('failed');
    rmSync(where.out);
    await expectOutReadOnce(where);
  });

  it('the record is written through the seam (red: written around it, so an injected failure never happens)', async () => {
    const where = probeHome();
    await record(await started(where));
    const fs = failingOn(
      'open',
      'EACCES',
      (path) => path.startsWith(`${where.out}.cursorhooks-`) && isDataTemp(path),
    );
    const failed = await finish(where, { fs });
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ reason: 'directory-not-writable', code: 'EACCES' });
    expect(existsSync(where.out)).toBe(false);
  });

  it("an existing file with exactly this record's bytes is no obstacle (red: an identical record counts as another file)", async () => {
    const where = probeHome();
    const options = { id: 'same.record', platform: 'linux', arch: 'x64', now: () => new Date(0) };
    await record(await started(where));
    const first = await finish(where, options);
    expect(first.error).toBeUndefined();
    const bytes = readFileSync(where.out);
    // The same probe again (same state directory, same layout), recorded the same way.
    await record(await started(where));
    const second = await finish(where, options);
    expect(second.error).toBeUndefined();
    expect(readFileSync(where.out)).toEqual(bytes);
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('interrupted after the record was decided, finish resumes from the state without the recordings; a different file at --out then refuses (red: the decided record is redone or overwritten)', async () => {
    const where = probeHome();
    await record(await started(where));
    // Taking the probe entry out fails: the hook file's swap cannot rename.
    const fs = failingOn('rename', 'EIO', (path) => path.startsWith(join(where.home, '.cursor')));
    const failed = await finish(where, { fs });
    expect(failed.status).toBe('failed');
    expect(failed.out).toBeNull();
    expect(failed.record).not.toBeNull();
    expect(failed.probe?.phase).toBe('finishing');
    expect(stateOf(where).phase).toBe('finishing');
    expect(stateOf(where).finishing.out).toBe(where.out);
    const written = readFileSync(where.out, 'utf8');
    expect(written).toBe(`${JSON.stringify(failed.record, null, 2)}\n`);

    // The recordings are gone: only the decided record can finish now.
    rmSync(probeLayout(where.stateDir, FAMILY).recordings, { recursive: true });
    writeFileSync(where.out, 'other\n');
    const refused = await finish(where);
    expect(refused.error?.reason).toBe('qualify-out-exists');
    expect(readFileSync(where.out, 'utf8')).toBe('other\n');
    writeFileSync(where.out, written);

    const resumed = await finish(where);
    expect(resumed.error).toBeUndefined();
    expect(resumed.record).toEqual(failed.record);
    expect(resumed.invocations).toEqual([]);
    expect(readFileSync(where.out, 'utf8')).toBe(written);
    expect(where.hooks()).toBe(USER_HOOKS);
    expect(existsSync(join(where.stateDir, 'qualification.json'))).toBe(false);
  });

  it('resumed with the record file gone, finish writes it again (red: a missing record counted as written)', async () => {
    const where = probeHome();
    await record(await started(where));
    const fs = failingOn('rename', 'EIO', (path) => path.startsWith(join(where.home, '.cursor')));
    const failed = await finish(where, { fs });
    const written = readFileSync(where.out, 'utf8');
    rmSync(where.out);
    const resumed = await finish(where);
    expect(resumed.error).toBeUndefined();
    expect(resumed.record).toEqual(failed.record);
    expect(readFileSync(where.out, 'utf8')).toBe(written);
  });
});

describe('cancelQualification', () => {
  it('nothing in progress: no-op, no probe, no error (red: cancel fails or invents a probe)', async () => {
    expect(await cancel(probeHome())).toEqual({ status: 'no-op', probe: null, error: undefined });
  });

  it('writes cancelling (finishing cleared) before it takes anything out, so a failed cancel says so (red: a failed cancel still looks waiting or finishing)', async () => {
    const where = probeHome();
    await record(await started(where));
    const fs = failingOn('rename', 'EIO', (path) => path.startsWith(join(where.home, '.cursor')));
    expect((await finish(where, { fs })).status).toBe('failed');
    expect(stateOf(where).finishing).not.toBeNull();
    const failed = await cancel(where, fs);
    expect(failed.status).toBe('failed');
    expect(failed.probe?.phase).toBe('cancelling');
    expect(stateOf(where)).toMatchObject({ phase: 'cancelling', finishing: null });
    const done = await cancel(where);
    expect(done).toMatchObject({ status: 'done', error: undefined });
    expect(done.probe?.phase).toBe('cancelling');
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('an interrupted cancel is not written again before it goes on (red: the state rewritten on every cancel)', async () => {
    const where = probeHome();
    await started(where);
    const stateFile = join(where.stateDir, 'qualification.json');
    writeFileSync(stateFile, JSON.stringify({ ...stateOf(where), phase: 'cancelling' }));
    const temps: string[] = [];
    const fs = wrapSeam((name, path) => {
      if (name === 'open' && path?.startsWith(stateFile) && isDataTemp(path)) temps.push(path);
    });
    const done = await cancel(where, fs);
    expect(done.status).toBe('done');
    expect(temps).toEqual([]);
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('a waiting probe is marked cancelling through a new state file (red: cancel never says it started)', async () => {
    const where = probeHome();
    await started(where);
    const stateFile = join(where.stateDir, 'qualification.json');
    const temps: string[] = [];
    const fs = wrapSeam((name, path) => {
      if (name === 'open' && path?.startsWith(stateFile) && isDataTemp(path)) temps.push(path);
    });
    expect((await cancel(where, fs)).status).toBe('done');
    expect(temps).toHaveLength(1);
  });
});

describe('module constants, read from a fresh copy of the module', () => {
  it('ConflictError and UnsupportedError are refusals, a system failure is not (red: every error reported as failed)', async () => {
    vi.resetModules();
    const fresh = await import('../../../src/node/qualify/probe.js');
    const where = probeHome();
    const base = { stateDir: where.stateDir, hooksFile: where.hooksFile };
    expect((await fresh.startQualification({ ...base, family: 'bash' })).status).toBe('refused');
    expect(
      (await fresh.finishQualification({ stateDir: where.stateDir, out: where.out })).status,
    ).toBe('refused');
    const fs = failingOn('mkdir', 'EIO', (path) => path === where.stateDir);
    expect((await fresh.cancelQualification({ stateDir: where.stateDir, fs })).status).toBe(
      'failed',
    );
  });
});
