// Side-file names and the sweep of a killed writer's leftovers, name by name: what counts as
// ours, whose creator is dead, and which failures are reported.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hasSideFiles,
  lockPathOf,
  removeLeftovers,
  sideFileName,
  sideFileOf,
} from '../../src/node/side-files/leftovers.js';
import { trackSideFile } from '../../src/node/side-files/side-file-registry.js';
import { nodeFs } from '../../src/node/write/fs-seam.js';
import { failing, tempDir } from './support.js';

const DEAD = spawnSync('true').pid as number;
const LIVE = process.ppid;

describe('side-file names', () => {
  it('puts the lock beside the target with the mark (red: two kits lock different files)', () => {
    expect(lockPathOf('/d/hooks.json')).toBe('/d/hooks.json.cursorhooks-lock');
  });

  it.each([
    ['tmp', /^\/d\/hooks\.json\.cursorhooks-(\d+)-[0-9a-f]{12}\.tmp$/],
    ['lock-tmp', /^\/d\/hooks\.json\.cursorhooks-lock-(\d+)-[0-9a-f]{12}\.tmp$/],
  ] as const)(
    'names a %s file with this pid and 12 random hex digits (red: the sweep cannot tell whose it is)',
    async (kind, shape) => {
      const name = await sideFileName('/d/hooks.json', kind);
      expect(shape.exec(name)?.[1]).toBe(String(process.pid));
      expect(await sideFileName('/d/hooks.json', kind)).not.toBe(name);
      expect(sideFileOf('hooks.json', name.slice('/d/'.length))).toEqual({
        kind,
        pid: process.pid,
      });
    },
  );

  it.each([
    'hooks.json',
    'hooks.json.bak',
    'other.json.cursorhooks-12-0123456789ab.tmp',
    'hooks.json.cursorhooks-12-0123456789a.tmp',
    'hooks.json.cursorhooks-12-0123456789abc.tmp',
    'hooks.json.cursorhooks-12-0123456789AB.tmp',
    'hooks.json.cursorhooks-12-0123456789ab.tmp.x',
    'hooks.json.cursorhooks-x12-0123456789ab.tmp',
    'hooks.json.cursorhooks--0123456789ab.tmp',
    'hooks.json.cursorhooks-lock',
  ])(
    'does not take %s for a side file (red: the sweep removes a file that is not ours)',
    (name) => {
      expect(sideFileOf('hooks.json', name)).toBeUndefined();
    },
  );
});

describe('whether side files stand beside a target', () => {
  it('sees a lock file, and nothing else counts (red: a check without the lock misses a running writer, or any file blocks it)', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    writeFileSync(target, '{}');
    writeFileSync(join(dir, 'hooks.json.bak'), '');
    writeFileSync(join(dir, 'other.json.cursorhooks-lock'), '');
    expect(await hasSideFiles(target, nodeFs)).toBe(false);
    writeFileSync(lockPathOf(target), '');
    expect(await hasSideFiles(target, nodeFs)).toBe(true);
  });

  it('is false for a missing directory and reports other failures (red: an unreadable directory passes as clean)', async () => {
    const dir = tempDir();
    expect(await hasSideFiles(join(dir, 'none', 'hooks.json'), nodeFs)).toBe(false);
    await expect(
      hasSideFiles(join(dir, 'hooks.json'), failing('readdir', 'EACCES')),
    ).rejects.toMatchObject({
      reason: 'permission-denied',
    });
  });
});

describe('removing leftovers', () => {
  type Verdict = 'stale' | 'kept' | 'unreadable';
  /** A staging judge that answers `verdict` and records what it was asked about. */
  const judging = (verdict: Verdict) => {
    const asked: string[] = [];
    const judge = async (path: string) => {
      asked.push(path);
      return verdict;
    };
    return { asked, judge };
  };

  it("removes temp files whoever made them and asks the judge about staging files only (red: a dead waiter's staging stays, a live one's vanishes, or a pid-namespace temp file stays forever)", async () => {
    // Unreadable: only the pid in the name decides, gone here (DEAD) or alive (LIVE).
    for (const [verdict, pid, removed] of [
      ['stale', LIVE, true],
      ['kept', DEAD, false],
      ['unreadable', DEAD, true],
      ['unreadable', LIVE, false],
    ] as const) {
      const dir = tempDir();
      const target = join(dir, 'hooks.json');
      const temp = join(dir, `hooks.json.cursorhooks-${LIVE}-0123456789ab.tmp`);
      const staging = join(dir, `hooks.json.cursorhooks-lock-${pid}-0123456789ab.tmp`);
      for (const path of [target, temp, staging, join(dir, 'notes.txt')]) writeFileSync(path, '');
      const { asked, judge } = judging(verdict);
      await removeLeftovers(target, nodeFs, judge);
      expect(asked).toEqual([staging]);
      const kept = ['hooks.json', 'notes.txt', ...(removed ? [] : [basename(staging)])];
      expect(readdirSync(dir).sort(), `${verdict} ${pid}`).toEqual(kept.sort());
    }
  });

  it('removes an unreadable staging file stamped with our own pid that this process did not make (red: a dead predecessor with a reused pid leaves it forever)', async () => {
    const dir = tempDir();
    const staging = join(dir, `hooks.json.cursorhooks-lock-${process.pid}-0123456789ab.tmp`);
    writeFileSync(staging, '');
    await removeLeftovers(join(dir, 'hooks.json'), nodeFs, judging('unreadable').judge);
    expect(existsSync(staging)).toBe(false);
  });

  it("removes a file of this pid unless this process tracks it (red: a dead predecessor's file with a reused pid stays, or our own is removed)", async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const ours = join(dir, `hooks.json.cursorhooks-lock-${process.pid}-0123456789ab.tmp`);
    const predecessor = join(dir, `hooks.json.cursorhooks-${process.pid}-ba9876543210.tmp`);
    writeFileSync(ours, '');
    writeFileSync(predecessor, '');
    const untrack = trackSideFile(ours);
    const { asked, judge } = judging('stale');
    try {
      await removeLeftovers(target, nodeFs, judge);
    } finally {
      untrack();
    }
    expect([existsSync(ours), existsSync(predecessor)]).toEqual([true, false]);
    expect(asked).toEqual([]);
  });

  it('does nothing for a missing directory and reports an unreadable one (red: the sweep fails a first install, or hides EACCES)', async () => {
    const dir = tempDir();
    const { judge } = judging('stale');
    await expect(
      removeLeftovers(join(dir, 'none', 'hooks.json'), nodeFs, judge),
    ).resolves.toBeUndefined();
    await expect(
      removeLeftovers(join(dir, 'hooks.json'), failing('readdir', 'EACCES'), judge),
    ).rejects.toMatchObject({
      reason: 'permission-denied',
    });
  });

  it('takes a leftover removed meanwhile as removed and reports other unlink failures (red: two sweeps race to a failure, or EACCES is hidden)', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const dead = join(dir, `hooks.json.cursorhooks-${DEAD}-0123456789ab.tmp`);
    writeFileSync(dead, '');
    const { judge } = judging('stale');
    await expect(
      removeLeftovers(target, failing('unlink', 'ENOENT'), judge),
    ).resolves.toBeUndefined();
    await expect(removeLeftovers(target, failing('unlink', 'EACCES'), judge)).rejects.toMatchObject(
      {
        reason: 'permission-denied',
      },
    );
  });
});
