// The qualification state directory is the user's alone: a link planted at any of the kit's
// names in it, before or after start, is never followed by start, status, finish or cancel
// (nothing outside the directory is deleted, written or created), and a directory of another
// owner, or one group or others can open, is refused before anything is made in it.
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cancelQualification,
  finishQualification,
  qualificationStatus,
  startQualification,
} from '../../src/node/index.js';
import { probeLayout, type StateEntry, stateEntries } from '../../src/node/qualify/layout.js';
import { grammarFamily } from '../../src/shell/families.js';
import { type ProbeHome, probeHome, USER_HOOKS } from './qualify-support.js';
import { allChecksPassed, tempDir } from './support.js';

const POSIX = 'posix-single-quote';
const FAMILY = grammarFamily(POSIX);
if (FAMILY === undefined) throw new Error('no posix family');

const start = (where: ProbeHome) =>
  startQualification({
    stateDir: where.stateDir,
    hooksFile: where.hooksFile,
    family: POSIX,
    checkHostPaths: allChecksPassed,
  });
const finish = (where: ProbeHome) =>
  finishQualification({ stateDir: where.stateDir, out: where.out });
const cancel = (where: ProbeHome) => cancelQualification({ stateDir: where.stateDir });
const status = (where: ProbeHome) => qualificationStatus({ stateDir: where.stateDir });

/** Files and a directory outside the state directory that no step may touch. */
function outside() {
  const dir = tempDir();
  const file = join(dir, 'sentinel');
  writeFileSync(file, 'sentinel bytes\n');
  const folder = join(dir, 'sentinel dir');
  mkdirSync(folder);
  writeFileSync(join(folder, 'kept'), 'kept\n');
  const missing = join(dir, 'not there');
  return {
    /** What a link at a name of `kind` leads to; `dangling` leads nowhere yet. */
    target: (entry: StateEntry, dangling: boolean) =>
      dangling ? missing : entry.kind === 'directory' ? folder : file,
    /** The test fails if anything outside changed: bytes, names, or a file made. */
    expectUntouched: () => {
      expect(readFileSync(file, 'utf8')).toBe('sentinel bytes\n');
      expect(readdirSync(dir).sort()).toEqual(['sentinel', 'sentinel dir']);
      expect(readdirSync(folder)).toEqual(['kept']);
    },
  };
}

const ENTRIES = stateEntries(probeLayout('/state', FAMILY)).map(
  (entry) => [entry.path.slice('/state/'.length), entry.kind] as const,
);

/** The entry of the state directory of `where` with that name. */
function entryAt(where: ProbeHome, name: string): StateEntry {
  const found = stateEntries(
    probeLayout(where.stateDir, FAMILY as NonNullable<typeof FAMILY>),
  ).find((entry) => entry.path === join(where.stateDir, name));
  if (found === undefined) throw new Error(`no entry ${name}`);
  return found;
}

describe('a link at a name of the state directory', () => {
  it.each(
    ENTRIES.flatMap(([name, kind]) => [[name, kind, false] as const, [name, kind, true] as const]),
  )(
    'planted before start at %s (%s, dangling: %s): start refuses it and nothing outside is touched by start, status, finish or cancel (red: the saved start or a state file is written through the link)',
    async (name, _kind, dangling) => {
      const where = probeHome();
      const world = outside();
      mkdirSync(where.stateDir, { mode: 0o700 });
      const entry = entryAt(where, name);
      // A name inside the probe directory needs the directory itself, a real one.
      mkdirSync(join(entry.path, '..'), { recursive: true, mode: 0o700 });
      symlinkSync(world.target(entry, dangling), entry.path);
      const started = await start(where);
      expect(started.status).toBe('failed');
      expect(started.error).toMatchObject({ reason: 'state-entry-unsafe', path: entry.path });
      expect(where.hooks()).toBe(USER_HOOKS);
      world.expectUntouched();
      expect((await status(where)).nextStep.code).toBe('fix-state-dir');
      // With no state, finish and cancel have nothing to do; either way nothing outside moves.
      for (const step of [finish, cancel]) {
        expect((await step(where)).status).not.toBe('done');
        world.expectUntouched();
      }
      expect(where.hooks()).toBe(USER_HOOKS);
    },
  );

  it.each(
    ENTRIES.flatMap(([name, kind]) => [[name, kind, false] as const, [name, kind, true] as const]),
  )(
    'planted after start at %s (%s, dangling: %s): status, finish and cancel refuse it and nothing outside is touched (red: cancel deletes, or finish writes, the file the link names)',
    async (name, _kind, dangling) => {
      const where = probeHome();
      const world = outside();
      expect((await start(where)).status).toBe('done');
      const entry = entryAt(where, name);
      rmSync(entry.path, { recursive: true, force: true });
      symlinkSync(world.target(entry, dangling), entry.path);
      const found = await status(where);
      expect(found.nextStep.code).toBe('fix-state-dir');
      expect(found.error).toMatchObject({ path: entry.path });
      world.expectUntouched();
      for (const step of [finish, cancel]) {
        const outcome = await step(where);
        expect(outcome.status).toBe('failed');
        expect(outcome.error).toMatchObject({ reason: 'state-entry-unsafe', path: entry.path });
        world.expectUntouched();
      }
      // The way out: remove the link; cancel then completes.
      rmSync(entry.path);
      expect((await cancel(where)).error).toBeUndefined();
      world.expectUntouched();
    },
  );
});

describe('a state directory that is not the user`s alone', () => {
  it.each([0o755, 0o777, 0o770])(
    'mode %o is refused state-dir-unsafe before anything is made in it (red: the probe lives where others can plant links)',
    async (mode) => {
      const where = probeHome();
      mkdirSync(where.stateDir);
      chmodSync(where.stateDir, mode);
      const started = await start(where);
      expect(started.status).toBe('failed');
      expect(started.error).toMatchObject({ reason: 'state-dir-unsafe', path: where.stateDir });
      expect(readdirSync(where.stateDir)).toEqual([]);
      expect(where.hooks()).toBe(USER_HOOKS);
      const found = await status(where);
      expect(found.nextStep.code).toBe('fix-state-dir');
      expect(found.error).toMatchObject({ reason: 'state-dir-unsafe' });
      expect((await cancel(where)).error).toMatchObject({ reason: 'state-dir-unsafe' });
    },
  );

  it.runIf(process.getuid?.() === 0)(
    'one owned by another user is refused state-dir-unsafe, even 0700 (red: a directory another user controls is trusted)',
    async () => {
      const where = probeHome();
      mkdirSync(where.stateDir, { mode: 0o700 });
      chownSync(where.stateDir, 65534, 65534);
      const started = await start(where);
      expect(started.error).toMatchObject({ reason: 'state-dir-unsafe', path: where.stateDir });
      expect(readdirSync(where.stateDir)).toEqual([]);
      expect(where.hooks()).toBe(USER_HOOKS);
    },
  );

  it('a missing one is created 0700 and status leaves a missing one missing (red: created open to others, or made by a read)', async () => {
    const where = probeHome();
    expect((await status(where)).nextStep.code).toBe('start');
    expect(existsSync(where.stateDir)).toBe(false);
    expect((await start(where)).status).toBe('done');
    expect(statSync(where.stateDir).mode & 0o777).toBe(0o700);
    expect((await cancel(where)).status).toBe('done');
  });
});
