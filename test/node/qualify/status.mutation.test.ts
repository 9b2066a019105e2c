// qualificationStatus step by step: the whole answer for each state a qualification can be in,
// the command lines it prints (quoted as one shell word each), the errors it carries, and the
// sentences, through a fresh import of the module.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { HostIOError } from '../../../src/node/errors.js';
import { PROBE_DIRECTORY } from '../../../src/node/qualify/layout.js';
import {
  QUALIFICATION_RECORD,
  QUALIFY_STEP_SENTENCES,
  qualificationStatus,
} from '../../../src/node/qualify/status.js';
import { USER_HOOKS } from '../qualify-support.js';
import { errno, tempDir } from '../support.js';
import { aRecord, recordingSeam, recordStop, type Started, started } from './support.js';

const status = (where: { stateDir: string }) => qualificationStatus({ stateDir: where.stateDir });

/** The state file with `change` applied. */
function editState(where: Started, change: Record<string, unknown>): void {
  writeFileSync(where.stateFile, JSON.stringify({ ...where.state(), ...change }));
}

/** How the state directory is quoted in a command line: it holds a space. */
const quoted = (where: Started) => `'${where.stateDir}'`;
/** The record path finish is told to write, beside the state directory, as one shell word. */
const quotedRecord = (where: Started) => {
  const path = join(dirname(where.stateDir), QUALIFICATION_RECORD);
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(path) ? path : `'${path}'`;
};

describe('no qualification in progress', () => {
  it('says start, with the command for this state directory and nothing else set (red: a field of the answer left over or missing)', async () => {
    const stateDir = join(tempDir(), 'a_b.c:d@e%f+g=h,i-j');
    expect(await qualificationStatus({ stateDir })).toStrictEqual({
      stateDir,
      phase: 'none',
      probe: null,
      invocations: [],
      entry: undefined,
      error: undefined,
      nextStep: {
        code: 'start',
        // Every character of this path is safe in a shell word: it stays unquoted.
        command: `cursorhooks qualify start --family FAMILY --state-dir ${stateDir}`,
        sentence: QUALIFY_STEP_SENTENCES.start,
      },
    });
  });

  it.each([
    ['a space in the middle', 'host state/x', (dir: string) => `'${dir}'`],
    ['an unsafe first character', '$x', (dir: string) => `'${dir}'`],
    ['an unsafe last character', 'x$', (dir: string) => `'${dir}'`],
    ['an apostrophe', "it's", (dir: string) => `'${dir.replace("'", `'"'"'`)}'`],
  ])(
    'quotes a state directory with %s as one shell word (red: a copied command splits or breaks)',
    async (_, name, quote) => {
      // A relative name: the path is printed as given, so the unsafe character can come first.
      const stateDir = name.startsWith('$') ? name : join(tempDir(), name);
      const answer = await qualificationStatus({ stateDir });
      expect(answer.nextStep.command).toBe(
        `cursorhooks qualify start --family FAMILY --state-dir ${quote(stateDir)}`,
      );
    },
  );
});

describe('a state file status cannot trust', () => {
  it('hand-edited: fix-state with the error naming the state file, no command, nothing known (red: a command runs on a forged state)', async () => {
    const where = await started();
    editState(where, { probeDir: '/home' });
    const answer = await status(where);
    expect(answer).toStrictEqual({
      stateDir: where.stateDir,
      phase: 'none',
      probe: null,
      invocations: [],
      entry: undefined,
      error: answer.error,
      nextStep: { code: 'fix-state', command: null, sentence: QUALIFY_STEP_SENTENCES['fix-state'] },
    });
    expect(answer.error).toBeInstanceOf(HostIOError);
    expect(answer.error).toMatchObject({
      reason: 'qualify-state-malformed',
      path: where.stateFile,
      role: 'probe',
    });
  });

  it('a family this kit does not know: fix-state, no error, no command (red: status trusts an unknown family)', async () => {
    const where = await started();
    editState(where, { family: 'bash' });
    const answer = await status(where);
    expect(answer.nextStep).toStrictEqual({
      code: 'fix-state',
      command: null,
      sentence: QUALIFY_STEP_SENTENCES['fix-state'],
    });
    expect(answer.error).toBeUndefined();
    expect(answer.phase).toBe('none');
    expect(answer.probe).toBeNull();
  });

  it('reads through the seam it is given: a state file it may not read is fix-state with permission-denied (red: the seam is ignored)', async () => {
    const where = await started();
    const { fs } = recordingSeam((name, path) => {
      if (name === 'open' && path === where.stateFile) throw errno('EACCES');
    });
    const answer = await qualificationStatus({ stateDir: where.stateDir, fs });
    expect(answer.nextStep.code).toBe('fix-state');
    expect(answer.error).toMatchObject({ reason: 'permission-denied', path: where.stateFile });
  });
});

describe('a qualification in progress', () => {
  it('waiting, nothing recorded, the entry in place: fire-stop, no command, the probe and entry known (red: waiting is taken for a dead probe)', async () => {
    const where = await started();
    const answer = await status(where);
    expect(answer.phase).toBe('waiting');
    expect(answer.nextStep).toStrictEqual({
      code: 'fire-stop',
      command: null,
      sentence: QUALIFY_STEP_SENTENCES['fire-stop'],
    });
    expect(answer.invocations).toStrictEqual([]);
    expect(answer.error).toBeUndefined();
    expect(answer.probe).toMatchObject({
      phase: 'waiting',
      family: 'posix-single-quote',
      hooksFile: where.hooksFile,
      argv: where.state().argv,
    });
    expect(answer.entry?.owned.state).toBe('owned');
    expect(answer.entry?.nextStep.code).toBe('none');
  });

  it('waiting, nothing recorded, the entry gone from the hook file: cancel (red: status says wait for a stop that can never reach the recorder)', async () => {
    const where = await started();
    writeFileSync(where.hooksFile, USER_HOOKS);
    const answer = await status(where);
    // The probe entry could be repaired; that is not the qualification's way out.
    expect(answer.entry?.nextStep.code).toBe('repair');
    expect(answer.nextStep).toStrictEqual({
      code: 'cancel',
      command: `cursorhooks qualify cancel --state-dir ${quoted(where)}`,
      sentence: QUALIFY_STEP_SENTENCES.cancel,
    });
    expect(answer.invocations).toStrictEqual([]);
  });

  it('waiting, the hook file unreadable: cancel, not a fix of the probe entry with no command (red: "cursorhooks null" printed)', async () => {
    const where = await started();
    writeFileSync(where.hooksFile, '{ "version": 1, ');
    const answer = await status(where);
    expect(answer.entry?.nextStep).toMatchObject({ code: 'fix-file', command: null });
    expect(answer.nextStep.code).toBe('cancel');
  });

  it('one stop recorded as intended: finish, with its command and the report (red: a matched stop is not finished)', async () => {
    const where = await started();
    await recordStop(where);
    const answer = await status(where);
    expect(answer.nextStep).toStrictEqual({
      code: 'finish',
      // Red before: --out RECORD.json, which finish refuses as a relative path.
      command: `cursorhooks qualify finish --state-dir ${quoted(where)} --out ${quotedRecord(where)}`,
      sentence: QUALIFY_STEP_SENTENCES.finish,
    });
    expect(answer.invocations).toHaveLength(1);
    expect(answer.invocations[0]?.matched).toBe(true);
    expect(answer.invocations[0]?.tokens.map((t) => t.recorded)).toEqual(where.state().argv);
    expect(answer.phase).toBe('waiting');
    expect(answer.entry?.owned.state).toBe('owned');
    expect(answer.error).toBeUndefined();
  });

  it('a stop recorded as intended, the entry gone since: finish, not cancel (red: a recorded stop is thrown away)', async () => {
    const where = await started();
    await recordStop(where);
    writeFileSync(where.hooksFile, USER_HOOKS);
    const answer = await status(where);
    expect(answer.entry?.owned.state).not.toBe('owned');
    expect(answer.nextStep.code).toBe('finish');
  });

  it('two stops, one of them mangled: cancel (red: one matching stop hides the mismatch)', async () => {
    const where = await started();
    await recordStop(where);
    await recordStop(where, [...where.state().argv.slice(0, -1), 'other']);
    const answer = await status(where);
    expect(answer.invocations.map((report) => report.matched).sort()).toEqual([false, true]);
    expect(answer.nextStep.code).toBe('cancel');
  });

  it('a recording that cannot be read: cancel, with the error naming the recordings (red: a broken recording is finished or thrown)', async () => {
    const where = await started();
    const recordings = join(where.stateDir, PROBE_DIRECTORY.posix, 'recordings');
    mkdirSync(join(recordings, 'rec-broken'));
    const answer = await status(where);
    expect(answer.nextStep.code).toBe('cancel');
    expect(answer.nextStep.command).toBe(`cursorhooks qualify cancel --state-dir ${quoted(where)}`);
    expect(answer.error).toMatchObject({ reason: 'probe-recording-malformed', role: 'probe' });
    expect(answer.phase).toBe('waiting');
    expect(answer.probe?.phase).toBe('waiting');
    expect(answer.entry?.owned.state).toBe('owned');
    expect(answer.invocations).toStrictEqual([]);
  });

  it.each([
    ['starting', 'cancel'],
    ['cancelling', 'cancel'],
  ] as const)(
    'phase %s: %s, whatever was recorded (red: an interrupted start or cancel is waited on)',
    async (phase, code) => {
      const where = await started();
      await recordStop(where);
      editState(where, { phase });
      const answer = await status(where);
      expect(answer.phase).toBe(phase);
      expect(answer.nextStep.code).toBe(code);
      expect(answer.nextStep.command).toBe(
        `cursorhooks qualify cancel --state-dir ${quoted(where)}`,
      );
      expect(answer.invocations).toStrictEqual([]);
      expect(answer.probe?.phase).toBe(phase);
      expect(answer.entry?.owned.state).toBe('owned');
    },
  );

  it('phase finishing: finish, before looking at recordings (red: an interrupted finish is cancelled)', async () => {
    const where = await started();
    const record = await aRecord();
    // A mangled recording beside: finishing already decided, so it does not count.
    await recordStop(where, [...where.state().argv.slice(0, -1), 'other']);
    editState(where, { phase: 'finishing', finishing: { out: where.out, record } });
    const answer = await status(where);
    expect(answer.phase).toBe('finishing');
    expect(answer.nextStep.code).toBe('finish');
    expect(answer.invocations).toStrictEqual([]);
  });

  it('a probe entry the user edited: fix-probe-entry with the release command on the probe ledger, quoted (red: cancel named where it refuses)', async () => {
    const where = await started();
    writeFileSync(where.hooksFile, where.hooks().replace('"timeout": 5', '"timeout": 9'));
    const answer = await status(where);
    const ledger = join(where.stateDir, 'probe-ledger.json');
    expect(answer.nextStep).toStrictEqual({
      code: 'fix-probe-entry',
      command: `cursorhooks release --hooks-file ${where.hooksFile} --ledger '${ledger}'`,
      sentence: QUALIFY_STEP_SENTENCES['fix-probe-entry'],
    });
    expect(answer.phase).toBe('waiting');
    expect(answer.probe?.hooksFile).toBe(where.hooksFile);
    expect(answer.entry?.nextStep.code).toBe('release');
  });
});

describe('through a fresh import of the module', () => {
  async function fresh() {
    vi.resetModules();
    return import('../../../src/node/qualify/status.js');
  }

  it('the sentences are these (red: a sentence changed or emptied)', async () => {
    const { QUALIFY_STEP_SENTENCES: sentences } = await fresh();
    expect(sentences).toStrictEqual({
      start: 'run qualify start: no qualification is in progress here',
      'fire-stop':
        'in Cursor, finish one agent turn (IDE: send the agent a short message and let it answer; CLI: an interactive session, not -p), then run qualify finish',
      finish:
        'run qualify finish: a recorded stop matched, or an interrupted finish is to be completed',
      cancel:
        'run qualify cancel: a start or cancel was interrupted, the probe entry is gone, Cursor ran the probe with other arguments (this family does not hold for this build), or the recorded stops name no single Cursor version (the error says which); a new qualify start can follow',
      'fix-probe-entry':
        'the probe entry cannot be taken out as it is: run the command shown (for the probe ledger), then cancel or finish again',
      'fix-state':
        'the state file is not one this kit wrote: check the hook file for the probe entry, then delete the state directory',
      'fix-state-dir':
        'the state directory is not yours alone, or holds a link or other file the kit did not make: fix what the error names, then run qualify status again',
    });
  });

  it('a probe entry status says to release is fixed first (red: release dropped from the steps remove refuses)', async () => {
    const { qualificationStatus: freshStatus } = await fresh();
    const where = await started();
    writeFileSync(where.hooksFile, where.hooks().replace('"timeout": 5', '"timeout": 9'));
    const answer = await freshStatus({ stateDir: where.stateDir });
    expect(answer.nextStep.code).toBe('fix-probe-entry');
  });

  /** status.js imported afresh with `module`'s `name` throwing a bug (a TypeError). */
  async function withBugIn(module: string, name: string) {
    vi.resetModules();
    vi.doMock(module, async (original) => ({
      ...(await original<object>()),
      [name]: async () => {
        throw new TypeError('bug');
      },
    }));
    try {
      return (await import('../../../src/node/qualify/status.js')).qualificationStatus;
    } finally {
      vi.doUnmock(module);
      vi.resetModules();
    }
  }

  // The seam cannot raise one here: the reads turn every failure into a HostIOError.
  it('a bug while reading the state is thrown, not reported as fix-state (red: a programming error looks like a hand edit)', async () => {
    const freshStatus = await withBugIn('../../../src/node/qualify/state.js', 'readState');
    const where = await started();
    await expect(freshStatus({ stateDir: where.stateDir })).rejects.toThrow(TypeError);
  });

  it('a bug while reading the recordings is thrown, not reported as cancel (red: a programming error looks like a broken recording)', async () => {
    const freshStatus = await withBugIn('../../../src/node/qualify/recording.js', 'readRecordings');
    const where = await started();
    await expect(freshStatus({ stateDir: where.stateDir })).rejects.toThrow(TypeError);
  });
});
