// The probe in cursorhooks/node: start installs a stop entry beside the user's own, the
// simulated Cursor fires it, finish writes a record only for a byte-exact match and leaves the
// hook file as it was; every refusal keeps what it found and says what to do next.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkStopEvent, qualifiedContract } from '../../src/index.js';
import {
  cancelQualification,
  finishQualification,
  ProbeArgvMismatchError,
  qualificationStatus,
  release,
  startQualification,
} from '../../src/node/index.js';
import {
  expectStateCleared,
  fire,
  type ProbeHome,
  probeHome,
  USER_HOOKS,
} from './qualify-support.js';
import { allChecksPassed } from './support.js';

const POSIX = 'posix-single-quote';

function start(where: ProbeHome, extra: { recorder?: string } = {}) {
  return startQualification({
    stateDir: where.stateDir,
    hooksFile: where.hooksFile,
    family: POSIX,
    checkHostPaths: allChecksPassed,
    ...extra,
  });
}

const finish = (where: ProbeHome, id?: string) =>
  finishQualification({
    stateDir: where.stateDir,
    out: where.out,
    ...(id === undefined ? {} : { id }),
  });

describe('a qualification from start to finish', () => {
  it('records what Cursor ran, writes a record qualifiedContract accepts, and leaves the hook file byte-identical (red: no record, or foreign bytes changed)', async () => {
    const where = probeHome();
    const started = await start(where);
    expect(started.error).toBeUndefined();
    expect(started.status).toBe('done');
    // The probe entry sits beside the user's own; their entry and layout are untouched.
    expect(where.hooks()).toContain('echo done');
    expect(where.hooks()).toContain(JSON.stringify(started.probe?.command).slice(1, -1));
    expect((await qualificationStatus({ stateDir: where.stateDir })).nextStep.code).toBe(
      'fire-stop',
    );

    const fired = await fire(where, { cursorVersion: '3.24.0' });
    expect(fired.map((hook) => hook.exit)).toEqual([0, 0]);
    expect(fired[1]?.stdout).toBe('{}\n');
    expect((await qualificationStatus({ stateDir: where.stateDir })).nextStep.code).toBe('finish');

    const finished = await finish(where);
    expect(finished.error).toBeUndefined();
    expect(where.hooks()).toBe(USER_HOOKS);
    expectStateCleared(where);
    const record = JSON.parse(readFileSync(where.out, 'utf8'));
    const contract = qualifiedContract(record);
    expect(contract.id).toBe('cursor-3.24.0-linux-posix-single-quote');
    expect(contract.evidence).toMatchObject({
      client: 'Cursor',
      version: '3.24.0',
      platform: process.platform,
      arch: process.arch,
    });
    expect(record.probe.recorded.cwd).toBe(join(where.home, '.cursor'));
    expect(record.probe.recorded.argv).toEqual(started.probe?.argv);
    // The intended argv holds an empty token, an apostrophe, a tab and non-ASCII.
    expect(record.probe.argv).toEqual(
      expect.arrayContaining(['', "it's", '\t', 'é 中 😀 cafe\u0301']),
    );
    // The observer's check passes for that build and flags the next one.
    expect(
      checkStopEvent('{"hook_event_name":"stop","cursor_version":"3.24.0"}', contract).qualified,
    ).toBe(true);
    expect(
      checkStopEvent('{"hook_event_name":"stop","cursor_version":"3.25.0"}', contract).verdict,
    ).toBe('version-differs');
    expect((await qualificationStatus({ stateDir: where.stateDir })).nextStep.code).toBe('start');
  });

  it('takes the version from CURSOR_VERSION alone and says so in the evidence (red: only stdin counts, or the source is not named)', async () => {
    const where = probeHome();
    await start(where);
    await fire(where, { cursorVersion: '3.24.1', versionOnStdin: false });
    const finished = await finish(where, 'my-cursor.3-24-1');
    expect(finished.error).toBeUndefined();
    expect(finished.record?.id).toBe('my-cursor.3-24-1');
    expect(finished.record?.evidence.version).toBe('3.24.1');
    expect(finished.record?.evidence.observed[0]).toContain('CURSOR_VERSION');
    expect(finished.record?.evidence.observed[0]).not.toContain('stdin');
  });

  it('refuses a record when Cursor reported no version at all, and keeps the probe (red: a record names a build nobody reported)', async () => {
    const where = probeHome();
    await start(where);
    await fire(where, { versionOnStdin: false, versionInEnv: false });
    const finished = await finish(where);
    expect(finished.error?.reason).toBe('qualify-version-unreported');
    expect(existsSync(where.out)).toBe(false);
    expect(where.hooks()).not.toBe(USER_HOOKS);
    expect((await cancelQualification({ stateDir: where.stateDir })).status).toBe('done');
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('refuses two recorded stops that report different versions (red: a record claims one of two builds)', async () => {
    const where = probeHome();
    await start(where);
    await fire(where, { cursorVersion: '3.24.0' });
    await fire(where, { cursorVersion: '3.25.0' });
    expect((await finish(where)).error?.reason).toBe('qualify-version-conflict');
    expect(existsSync(where.out)).toBe(false);
  });
});

describe('a stop that reported no version (status and finish must not point at each other)', () => {
  it('a versionless stop then a versioned one: finish writes the record from the versioned stop and says the other was ignored (red: qualify-version-unreported or record-version-mismatch)', async () => {
    const where = probeHome();
    await start(where);
    await fire(where, { versionOnStdin: false, versionInEnv: false });
    await fire(where, { cursorVersion: '3.24.0' });
    const status = await qualificationStatus({ stateDir: where.stateDir });
    expect(status.nextStep.code).toBe('finish');
    expect(status.invocations.map((report) => report.versionReported).sort()).toEqual([
      false,
      true,
    ]);
    const finished = await finish(where);
    expect(finished.error).toBeUndefined();
    expect(finished.record?.evidence.version).toBe('3.24.0');
    expect(finished.record?.probe.recorded.cursorVersion).toBe('3.24.0');
    expect(finished.record?.evidence.run).toBe(
      'cursorhooks qualify: 2 recorded stop invocation(s), every one matching the intended argv; 1 of them reported no Cursor version and were ignored',
    );
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('only versionless stops: status names cancel with its command line and the reason, never finish (red: status says finish, which refuses qualify-version-unreported)', async () => {
    const where = probeHome();
    await start(where);
    await fire(where, { versionOnStdin: false, versionInEnv: false });
    const status = await qualificationStatus({ stateDir: where.stateDir });
    expect(status.nextStep.code).toBe('cancel');
    expect(status.nextStep.command).toBe(
      `cursorhooks qualify cancel --state-dir '${where.stateDir}'`,
    );
    expect(status.error?.reason).toBe('qualify-version-unreported');
    expect((await finish(where)).error?.reason).toBe('qualify-version-unreported');
    expect((await cancelQualification({ stateDir: where.stateDir })).status).toBe('done');
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('two stops naming different versions: status names cancel and the conflict (red: status says finish, which refuses qualify-version-conflict)', async () => {
    const where = probeHome();
    await start(where);
    await fire(where, { cursorVersion: '3.24.0' });
    await fire(where, { cursorVersion: '3.25.0' });
    const status = await qualificationStatus({ stateDir: where.stateDir });
    expect(status.nextStep.code).toBe('cancel');
    expect(status.error?.reason).toBe('qualify-version-conflict');
  });
});

describe('refusals keep what they found', () => {
  it('never fired: probe-not-fired, the probe stays until cancel, which restores the file byte for byte (red: finish guesses, or cancel leaves the entry)', async () => {
    const where = probeHome();
    await start(where);
    await fire(where, { misbehave: 'never-fire' });
    const finished = await finish(where);
    expect(finished.status).toBe('refused');
    expect(finished.error?.reason).toBe('probe-not-fired');
    expect(existsSync(where.out)).toBe(false);
    const status = await qualificationStatus({ stateDir: where.stateDir });
    expect(status.phase).toBe('waiting');
    expect(status.nextStep.code).toBe('fire-stop');
    expect((await cancelQualification({ stateDir: where.stateDir })).status).toBe('done');
    expect(where.hooks()).toBe(USER_HOOKS);
    expectStateCleared(where);
    expect((await cancelQualification({ stateDir: where.stateDir })).status).toBe('no-op');
  });

  it('a launcher that drops empty arguments: probe-argv-mismatch with the per-token report, no record (red: a mangled argv qualifies)', async () => {
    const where = probeHome();
    const started = await start(where);
    await fire(where, { misbehave: 'drop-empty' });
    const finished = await finish(where);
    expect(finished.error).toBeInstanceOf(ProbeArgvMismatchError);
    expect(existsSync(where.out)).toBe(false);
    const [report] = finished.invocations;
    expect(report?.matched).toBe(false);
    const argv = started.probe?.argv ?? [];
    const empty = argv.indexOf('');
    expect(report?.tokens[empty]).toEqual({
      index: empty,
      intended: '',
      recorded: argv[empty + 1],
      equal: false,
    });
    expect(report?.tokens.at(-1)).toEqual({
      index: argv.length - 1,
      intended: argv.at(-1),
      recorded: null,
      equal: false,
    });
    const status = await qualificationStatus({ stateDir: where.stateDir });
    expect(status.nextStep.code).toBe('cancel');
    expect(status.invocations).toEqual(finished.invocations);
  });

  it('a second start refuses while one is in progress and changes nothing (red: two probe entries)', async () => {
    const where = probeHome();
    await start(where);
    const after = where.hooks();
    const again = await start(where);
    expect(again.error?.reason).toBe('qualify-in-progress');
    expect(where.hooks()).toBe(after);
  });

  it('a hook file that is not JSON: start refuses with the position and leaves nothing behind (red: a half-made probe stays)', async () => {
    const where = probeHome('{ "version": 1, "hooks": {}, }');
    const started = await start(where);
    expect(started.status).toBe('refused');
    expect(started.error?.reason).toBe('json-syntax');
    expect(started.error?.at).toEqual({ offset: 27, line: 1, column: 28 });
    expect(where.hooks()).toBe('{ "version": 1, "hooks": {}, }');
    expectStateCleared(where);
  });

  it('an existing different file at --out is never replaced; moved away, finish goes on (red: a record overwrites a file)', async () => {
    const where = probeHome();
    await start(where);
    await fire(where);
    writeFileSync(where.out, 'mine\n');
    expect((await finish(where)).error?.reason).toBe('qualify-out-exists');
    expect(readFileSync(where.out, 'utf8')).toBe('mine\n');
    const status = await qualificationStatus({ stateDir: where.stateDir });
    // Refused before the record was decided: still waiting, so cancel or finish both stay open.
    expect(status.phase).toBe('waiting');
    expect(status.nextStep.code).toBe('finish');
    unlinkSync(where.out);
    expect((await finish(where)).error).toBeUndefined();
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('unknown family, a family of another platform, and the Windows family without a recorder are refused before anything is made (red: a probe that can never fire)', async () => {
    const where = probeHome();
    const base = { stateDir: where.stateDir, hooksFile: where.hooksFile };
    expect((await startQualification({ ...base, family: 'bash' })).error?.reason).toBe(
      'qualify-family-unknown',
    );
    expect(
      (await startQualification({ ...base, family: POSIX, platform: 'win32' })).error?.reason,
    ).toBe('qualify-family-other-platform');
    expect(
      (await startQualification({ ...base, family: 'powershell-stop', platform: 'win32' })).error
        ?.reason,
    ).toBe('qualify-recorder-required');
    expect(where.hooks()).toBe(USER_HOOKS);
    expect(existsSync(where.stateDir)).toBe(false);
  });

  it('a hand-edited state file: status says fix-state and cancel refuses to trust it (red: cancel removes what a forged state names)', async () => {
    const where = probeHome();
    await start(where);
    const stateFile = join(where.stateDir, 'qualification.json');
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    writeFileSync(stateFile, JSON.stringify({ ...state, probeDir: '/home' }));
    const status = await qualificationStatus({ stateDir: where.stateDir });
    expect(status.nextStep.code).toBe('fix-state');
    expect(status.error?.reason).toBe('qualify-state-malformed');
    expect((await cancelQualification({ stateDir: where.stateDir })).error?.reason).toBe(
      'qualify-state-malformed',
    );
  });

  it('a probe entry the user edited: cancel refuses, status names release on the probe ledger, after which cancel completes (red: a dead end, or the edit is lost)', async () => {
    const where = probeHome();
    await start(where);
    writeFileSync(where.hooksFile, where.hooks().replace('"timeout": 5', '"timeout": 9'));
    const edited = where.hooks();
    const cancelled = await cancelQualification({ stateDir: where.stateDir });
    expect(cancelled.status).toBe('refused');
    expect(where.hooks()).toBe(edited);
    const status = await qualificationStatus({ stateDir: where.stateDir });
    expect(status.nextStep.code).toBe('fix-probe-entry');
    expect(status.nextStep.command).toContain('cursorhooks release --hooks-file');
    expect(status.nextStep.command).toContain('probe-ledger.json');
    await release({
      hooksFile: where.hooksFile,
      ledger: join(where.stateDir, 'probe-ledger.json'),
    });
    expect((await cancelQualification({ stateDir: where.stateDir })).status).toBe('done');
    // The edited entry is the user's now: it stays, and nothing of the probe's state is left.
    expect(where.hooks()).toBe(edited);
    expectStateCleared(where);
  });
});

describe('the user file as it started', () => {
  it.each([
    ['without a stop event', '{"version":1,"hooks":{}}'],
    ['with an empty hooks object spread over lines', '{\n  "version": 1,\n  "hooks": {\n  }\n}\n'],
  ])(
    '%s: finish and cancel give it back byte for byte, not with the stop array the install made (red: an empty "stop": [] is left behind)',
    async (_, text) => {
      for (const end of ['finish', 'cancel'] as const) {
        const where = probeHome(text);
        await start(where);
        expect(where.hooks()).toContain('"stop"');
        if (end === 'finish') {
          await fire(where);
          expect((await finish(where)).error).toBeUndefined();
        } else {
          expect((await cancelQualification({ stateDir: where.stateDir })).error).toBeUndefined();
        }
        expect(where.hooks(), end).toBe(text);
        expectStateCleared(where);
      }
    },
  );

  it('a hook file the probe created is deleted again, unless the user wrote to it meanwhile (red: a file the user never had is left, or their edit is lost)', async () => {
    const where = probeHome();
    unlinkSync(where.hooksFile);
    await start(where);
    expect((await cancelQualification({ stateDir: where.stateDir })).error).toBeUndefined();
    expect(existsSync(where.hooksFile)).toBe(false);

    await start(where);
    // The user adds a hook of their own while the probe waits: the file is theirs now.
    writeFileSync(
      where.hooksFile,
      where.hooks().replace('"stop": [', '"stop": [{"command":"mine"},'),
    );
    expect((await cancelQualification({ stateDir: where.stateDir })).error).toBeUndefined();
    expect(where.hooks()).toContain('"mine"');
    expect(where.hooks()).not.toContain('record stop');
  });
});
