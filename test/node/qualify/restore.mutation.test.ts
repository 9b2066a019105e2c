// restoreStart case by case, with the probe's own planner and a hook file left exactly as
// installing and removing the probe entry leave it, or edited since: what is given back, what is
// kept, what is deleted, and which reads it makes.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../src/errors/errors.js';
import { probeLayout } from '../../../src/node/qualify/layout.js';
import { probeContract, probePlanner } from '../../../src/node/qualify/probe-contract.js';
import {
  readStart,
  restoreStart,
  type StartOf,
  saveStart,
} from '../../../src/node/qualify/restore.js';
import { nodeFs } from '../../../src/node/write/fs-seam.js';
import type { HookPlanner } from '../../../src/planner/hook-planner.js';
import { Operation } from '../../../src/planner/operation.js';
import type { PlanRequest, PlanResult } from '../../../src/planner/request.js';
import { grammarFamily } from '../../../src/shell/families.js';
import { errno, tempDir } from '../support.js';
import { recordingSeam } from './support.js';

const family = grammarFamily('posix-single-quote');
if (family === undefined) throw new Error('no posix family');

const text = (value: string) => new TextEncoder().encode(value);

interface Case {
  readonly start: StartOf;
  /** The hook file as installing and removing the probe entry into `started` leave it. */
  readonly leftover: string;
}

/** A probe's StartOf in a fresh directory; the hook file and the saved start are not written. */
function probeCase(started: string | null): Case {
  const dir = tempDir();
  const stateDir = join(dir, 'state');
  mkdirSync(stateDir);
  const layout = probeLayout(stateDir, family as NonNullable<typeof family>);
  const contract = probeContract(family as NonNullable<typeof family>, layout.extraTokens);
  const planner = probePlanner(family as NonNullable<typeof family>, layout.extraTokens);
  const spec = { executable: layout.scriptRecorder, selector: layout.binding };
  // The test's own oracle: install then remove, as the probe's lifecycle does.
  const installed = planner.plan({
    document: started === null ? null : text(started),
    operation: Operation.Install,
    specs: [spec],
    shell: contract.id,
    executableVerified: true,
  });
  expect(installed.error).toBeUndefined();
  const removed = planner.plan({
    document: installed.desired,
    operation: Operation.Remove,
    previous: installed.receipt,
  });
  expect(removed.error).toBeUndefined();
  return {
    start: {
      hooksFile: join(dir, 'hooks.json'),
      startFile: layout.startFile,
      existed: started !== null,
      spec,
      shell: contract.id,
      planner,
    },
    leftover: new TextDecoder().decode(removed.desired),
  };
}

const NO_STOP = '{"version":1,"hooks":{}}';
const WITH_STOP = '{"version":1,"hooks":{"stop":[{"command":"mine"}]}}';
const hooks = (c: Case) => readFileSync(c.start.hooksFile, 'utf8');

describe('restoreStart', () => {
  it('gives back the starting bytes over the probe`s leftover, through the seam (red: an empty "stop": [] stays)', async () => {
    const c = probeCase(NO_STOP);
    expect(c.leftover).not.toBe(NO_STOP);
    writeFileSync(c.start.startFile, NO_STOP);
    writeFileSync(c.start.hooksFile, c.leftover);
    const { fs, calls } = recordingSeam();
    await restoreStart(c.start, fs);
    expect(hooks(c)).toBe(NO_STOP);
    expect(calls.some((call) => call.name === 'rename' && call.args[1] === c.start.hooksFile)).toBe(
      true,
    );
    // The hook file's lock is taken through the seam too.
    const lock = `${c.start.hooksFile}.cursorhooks-lock-`;
    expect(
      calls.some((call) => call.name === 'link' && String(call.args[0]).startsWith(lock)),
    ).toBe(true);
  });

  it('a hook file it cannot read under the lock fails naming it as the hook file (red: another role)', async () => {
    const c = probeCase(NO_STOP);
    writeFileSync(c.start.startFile, NO_STOP);
    writeFileSync(c.start.hooksFile, c.leftover);
    const { fs } = recordingSeam((name, path) => {
      if (name === 'open' && path === c.start.hooksFile) throw errno('EACCES');
    });
    const err = await restoreStart(c.start, fs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({
      reason: 'permission-denied',
      path: c.start.hooksFile,
      role: 'hook-file',
    });
    expect(hooks(c)).toBe(c.leftover);
  });

  it('reads an empty saved start once, and gives back the empty file (red: a settle delay and a second read)', async () => {
    const c = probeCase('');
    writeFileSync(c.start.startFile, '');
    writeFileSync(c.start.hooksFile, c.leftover);
    const { fs, calls } = recordingSeam();
    await restoreStart(c.start, fs);
    expect(hooks(c)).toBe('');
    const reads = calls.filter(
      (call) => call.name === 'open' && call.args[0] === c.start.startFile,
    );
    expect(reads).toHaveLength(1);
  });

  it('keeps the file when the user changed it since (red: their edit is lost)', async () => {
    const c = probeCase(NO_STOP);
    writeFileSync(c.start.startFile, NO_STOP);
    const edited = c.leftover.replace('"stop":[', '"stop":[{"command":"mine"}');
    expect(edited).not.toBe(c.leftover);
    writeFileSync(c.start.hooksFile, edited);
    await restoreStart(c.start, nodeFs);
    expect(hooks(c)).toBe(edited);
  });

  it('gives nothing back when the start was never saved (red: the file is replaced by nothing)', async () => {
    const c = probeCase(NO_STOP);
    writeFileSync(c.start.hooksFile, c.leftover);
    const { fs, calls } = recordingSeam();
    await restoreStart(c.start, fs);
    expect(hooks(c)).toBe(c.leftover);
    expect(calls.filter((call) => call.name === 'rename' || call.name === 'unlink')).toEqual([]);
  });

  it('takes no lock when the leftover is the start itself (red: a lock and a rewrite for nothing)', async () => {
    const c = probeCase(WITH_STOP);
    expect(c.leftover).toBe(WITH_STOP);
    writeFileSync(c.start.startFile, WITH_STOP);
    writeFileSync(c.start.hooksFile, WITH_STOP);
    const { fs, calls } = recordingSeam();
    await restoreStart(c.start, fs);
    expect(hooks(c)).toBe(WITH_STOP);
    expect(calls.every((call) => call.args[0] === c.start.startFile)).toBe(true);
  });

  it('leaves a start the planner refuses alone (red: a refused plan still restores)', async () => {
    const c = probeCase(NO_STOP);
    writeFileSync(c.start.startFile, '{ "version": 1, ');
    writeFileSync(c.start.hooksFile, c.leftover);
    await restoreStart(c.start, nodeFs);
    expect(hooks(c)).toBe(c.leftover);
  });

  it('deletes a hook file the probe created when it is exactly the leftover, and keeps one the user wrote to (red: a file the user never had stays, or theirs goes)', async () => {
    const c = probeCase(null);
    writeFileSync(c.start.hooksFile, c.leftover);
    const { fs, calls } = recordingSeam();
    await restoreStart(c.start, fs);
    expect(existsSync(c.start.hooksFile)).toBe(false);
    expect(calls.some((call) => call.name === 'unlink' && call.args[0] === c.start.hooksFile)).toBe(
      true,
    );

    const edited = `${c.leftover} `;
    writeFileSync(c.start.hooksFile, edited);
    await restoreStart(c.start, nodeFs);
    expect(hooks(c)).toBe(edited);
    // Absent already: nothing to do, nothing thrown.
    const gone = probeCase(null);
    await restoreStart(gone.start, nodeFs);
    expect(existsSync(gone.start.hooksFile)).toBe(false);
  });

  it('an unreadable saved start fails naming it as the probe`s (red: it is named as the hook file)', async () => {
    const c = probeCase(NO_STOP);
    mkdirSync(c.start.startFile);
    const err = await restoreStart(c.start, nodeFs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ path: c.start.startFile, role: 'probe' });
  });
});

describe('readStart and saveStart', () => {
  it('read the hook file as the hook file and keep its bytes 0600 (red: the role or the mode wrong)', async () => {
    const dir = tempDir();
    const file = join(dir, 'hooks.json');
    writeFileSync(file, WITH_STOP);
    const start = await readStart(file, nodeFs);
    expect(start.exists).toBe(true);
    const saved = join(dir, 'hooks-start.json');
    await saveStart(start, saved, nodeFs);
    expect(readFileSync(saved, 'utf8')).toBe(WITH_STOP);
    expect(statSync(saved).mode & 0o777).toBe(0o600);

    mkdirSync(join(dir, 'dir.json'));
    const err = await readStart(join(dir, 'dir.json'), nodeFs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ path: join(dir, 'dir.json'), role: 'hook-file' });
  });
});

/** A planner double: Install and Remove answer as told, the desired bytes given as text. */
function double(install: Partial<PlanResult>, remove: Partial<PlanResult>): HookPlanner {
  const answer = (part: Partial<PlanResult>) => ({
    receipt: undefined,
    error: undefined,
    noOp: false,
    conflict: part.error !== undefined,
    desired: new Uint8Array(0),
    ...part,
  });
  return {
    plan: (request: PlanRequest) =>
      answer(request.operation === Operation.Install ? install : remove),
  } as unknown as HookPlanner;
}

describe('restoreStart with a planner that refuses', () => {
  const REFUSED = new ConflictError('qualify-in-progress');
  const RECEIPT = { receipt: 'R' } as unknown as Partial<PlanResult>;
  const LEFT = text('{"left":1}');

  /** A start saved as NO_STOP, the hook file `{"left":1}`, and the planner `planner`. */
  async function restoreWith(planner: HookPlanner): Promise<string> {
    const c = probeCase(NO_STOP);
    writeFileSync(c.start.startFile, NO_STOP);
    writeFileSync(c.start.hooksFile, LEFT);
    await restoreStart({ ...c.start, planner }, nodeFs);
    return hooks(c);
  }

  it.each<[string, Partial<PlanResult>, Partial<PlanResult>]>([
    [
      'an install refused though it names a receipt',
      { ...RECEIPT, error: REFUSED },
      { desired: LEFT },
    ],
    ['an install with no receipt', { desired: LEFT }, { desired: LEFT }],
    ['a remove refused', { ...RECEIPT, desired: LEFT }, { error: REFUSED, desired: LEFT }],
  ])(
    '%s: nothing is given back (red: bytes no plan vouched for are taken for the leftover)',
    async (_, install, remove) => {
      expect(await restoreWith(double(install, remove))).toBe('{"left":1}');
    },
  );

  it('the same double with both plans done gives the start back (red: the double proves nothing)', async () => {
    expect(await restoreWith(double({ ...RECEIPT, desired: LEFT }, { desired: LEFT }))).toBe(
      NO_STOP,
    );
  });
});
