// The lock's edges the behaviour suites do not pin, through the fs seam and real files: what the
// owner record holds, which failures are retried and how often, what a timeout names, how the
// read-only inspection judges a record, leases of unprobeable holders, and the clean-up of break
// files a killed breaker left.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  readFileSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FileChangedError, type HostIOError, TargetMovedError } from '../../src/node/errors.js';
import {
  acquireLock,
  inspectLock,
  type LockOwner,
  readOwner,
  releaseLock,
  withLock,
  withSweptLock,
  withTargetLock,
} from '../../src/node/lock/lock.js';
import { selfIdentity } from '../../src/node/lock/process-identity.js';
import { readLocked } from '../../src/node/lock/read-locked.js';
import { lockPathOf } from '../../src/node/side-files/leftovers.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { windowsRetrying } from '../../src/node/write/windows-retry.js';
import { errno, hostFailure, strays, tempDir, wrapSeam } from './support.js';

function deadPid(): number {
  const pid = spawnSync('true').pid;
  if (pid === undefined) throw new Error('no child pid');
  return pid;
}

function record(fields: Record<string, unknown>): string {
  return JSON.stringify({
    pid: deadPid(),
    hostname: hostname(),
    acquiredAt: '2026-01-01T00:00:00Z',
    nonce: 'ab',
    ...fields,
  });
}

function target(): { dir: string; file: string; lock: string } {
  const dir = tempDir();
  const file = join(dir, 'hooks.json');
  return { dir, file, lock: lockPathOf(file) };
}

describe('withLock', () => {
  it('refuses to wait for a lock its own call chain holds, naming it (red: a nested call waits for itself until lock-timeout)', async () => {
    const { file, lock } = target();
    const err = await hostFailure(withLock(file, () => withLock(file, async () => 'inner')));
    expect(err).toMatchObject({ reason: 'lock-held-by-this-process', path: lock, role: 'lock' });
    expect(existsSync(lock)).toBe(false);
  });

  it('lets a call chain holding one lock take another file`s, and both are held inside (red: the outer lock is forgotten in the inner body)', async () => {
    const { dir, file } = target();
    const other = join(dir, 'other.json');
    const inner = await withLock(file, () =>
      withLock(other, async () =>
        withLock(file, async () => 'again').catch((e: HostIOError) => e.reason),
      ),
    );
    expect(inner).toBe('lock-held-by-this-process');
  });

  it('creates a missing directory 0o755 before the umask (red: a fresh ~/.cursor cannot be locked, or is made with another mode)', async () => {
    const dir = join(tempDir(), 'fresh', '.cursor');
    const file = join(dir, 'hooks.json');
    expect(await withLock(file, async () => 'entered')).toBe('entered');
    const umask = process.umask();
    expect(statSync(dir).mode & 0o777).toBe(0o755 & ~umask);
  });

  it('reports a directory it cannot make by its errno reason (red: a mkdir failure escapes as a bare system error)', async () => {
    const { file } = target();
    const fs = wrapSeam((call) => {
      if (call === 'mkdir') throw errno('EACCES');
    });
    const err = await hostFailure(withLock(file, async () => 'entered', { fs }));
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EACCES' });
  });

  it('passes the body`s error on when the release fails too (red: a release failure hides why the body failed)', async () => {
    const { file, lock } = target();
    const fs = wrapSeam((call, path) => {
      if (call === 'unlink' && path === lock) throw errno('EIO');
    });
    await expect(withLock(file, () => Promise.reject(new Error('body')), { fs })).rejects.toThrow(
      'body',
    );
    unlinkSync(lock);
  });

  it('fails a finished body whose lock cannot be released, with the errno (red: a lock left behind is reported as success)', async () => {
    const { file, lock } = target();
    const fs = wrapSeam((call, path) => {
      if (call === 'unlink' && path === lock) throw errno('EIO');
    });
    const err = await hostFailure(withLock(file, async () => 'entered', { fs }));
    expect(err).toMatchObject({ reason: 'io-failure', code: 'EIO' });
    unlinkSync(lock);
  });

  it('returns the body`s value and releases (red: the result is lost or the lock stays)', async () => {
    const { dir, file } = target();
    expect(await withLock(file, async () => 42)).toBe(42);
    expect(strays(dir)).toEqual([]);
  });
});

describe('withSweptLock and withTargetLock', () => {
  it('sweeps a dead writer`s temp file before the body and hands it the real path (red: the body runs beside leftovers, or on the link)', async () => {
    const { dir, file } = target();
    writeFileSync(file, '{}');
    const link = join(dir, 'link.json');
    symlinkSync(file, link);
    const leftover = `${file}.cursorhooks-${deadPid()}-0123456789ab.tmp`;
    writeFileSync(leftover, '');
    const seen = await withSweptLock(link, async (realPath) => ({
      realPath,
      leftover: existsSync(leftover),
    }));
    expect(seen).toEqual({ realPath: file, leftover: false });
  });

  it('relocks a target retargeted while locking, and gives up after three relocks with file-changed (red: it writes the old file, or relocks forever)', async () => {
    const { dir } = target();
    const link = join(dir, 'link.json');
    // Every resolve of the link names a new file: each attempt finds it moved under its lock.
    let n = 0;
    const fs: FsSeam = {
      ...nodeFs,
      realpath: async (path) => (path === link ? join(dir, `f${n++}.json`) : nodeFs.realpath(path)),
    };
    let bodies = 0;
    const err = await withTargetLock(
      link,
      async () => {
        bodies++;
      },
      { fs },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetMovedError);
    expect(err).toBeInstanceOf(FileChangedError);
    expect(bodies).toBe(0);
    // Four attempts, each resolving twice (before and under the lock).
    expect(n).toBe(8);
    expect(strays(dir)).toEqual([]);
  });

  it('runs the body once a retarget settles (red: one retarget fails the run)', async () => {
    const { dir } = target();
    const link = join(dir, 'link.json');
    let n = 0;
    const fs: FsSeam = {
      ...nodeFs,
      realpath: async (path) =>
        path === link ? join(dir, n++ === 0 ? 'old.json' : 'new.json') : nodeFs.realpath(path),
    };
    expect(await withTargetLock(link, async (realPath) => realPath, { fs })).toBe(
      join(dir, 'new.json'),
    );
  });

  it('passes any other error of the body straight on (red: a body failure is retried)', async () => {
    const { file } = target();
    let bodies = 0;
    await expect(
      withTargetLock(file, async () => {
        bodies++;
        throw new FileChangedError();
      }),
    ).rejects.toBeInstanceOf(FileChangedError);
    expect(bodies).toBe(1);
  });

  it('readLocked refuses a path that names another file than the locked one (red: a retargeted link is read as the locked file)', async () => {
    const { dir, file } = target();
    writeFileSync(file, '{}');
    const snapshot = await readLocked(file, file, nodeFs);
    expect(snapshot.realPath).toBe(file);
    await expect(readLocked(file, join(dir, 'other.json'), nodeFs)).rejects.toBeInstanceOf(
      TargetMovedError,
    );
  });
});

describe('the owner record', () => {
  it('names this process, its host, the time, a 96-bit nonce and its identity, one JSON line (red: a waiter cannot judge the holder)', async () => {
    const { file, lock } = target();
    const before = Date.now();
    const owner = await acquireLock(file, nodeFs, 1_000);
    const text = readFileSync(lock, 'utf8');
    await releaseLock(file, owner, nodeFs);
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(owner);
    expect(owner).toMatchObject({ pid: process.pid, hostname: hostname(), ...selfIdentity() });
    expect(owner.nonce).toMatch(/^[0-9a-f]{24}$/);
    const at = Date.parse(owner.acquiredAt);
    expect(owner.acquiredAt).toBe(new Date(at).toISOString());
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(existsSync(lock)).toBe(false);
  });

  it('is written 0o644 to an exclusive staging file and flushed before it is linked (red: a lock survives a power loss empty, or readable by nobody)', async () => {
    const { dir, file, lock } = target();
    const order: string[] = [];
    const fs = wrapSeam((call, path) => {
      if (['open', 'write', 'fsync', 'close', 'link', 'lstat'].includes(call)) order.push(call);
      if (call === 'link' && path !== undefined) {
        const mode = statSync(path).mode & 0o777;
        order.push(`mode ${mode.toString(8)}`);
      }
    });
    const owner = await acquireLock(file, fs, 1_000);
    expect(order).toEqual([
      'open',
      'write',
      'fsync',
      'close',
      'link',
      `mode ${(0o644 & ~process.umask()).toString(8)}`,
      // Then the break files a killed breaker may have left, four levels, looked at, not opened.
      ...Array(4).fill('lstat'),
    ]);
    await releaseLock(file, owner, nodeFs);
    expect(existsSync(lock)).toBe(false);
    expect(strays(dir)).toEqual([]);
  });

  it('reports a staging file it cannot create or write by errno reason and leaves nothing (red: a full disk leaves a half staging file or a bare error)', async () => {
    for (const [call, code, reason] of [
      ['open', 'EACCES', 'directory-not-writable'],
      ['write', 'ENOSPC', 'disk-full'],
      ['fsync', 'EIO', 'io-failure'],
    ] as const) {
      const { dir, file } = target();
      let closed = 0;
      const fs = wrapSeam((name) => {
        if (name === call) throw errno(code);
        if (name === 'close') closed++;
      });
      const err = await hostFailure(acquireLock(file, fs, 1_000));
      expect(err, call).toMatchObject({ reason, code });
      expect(closed, call).toBe(call === 'open' ? 0 : 1);
      expect(strays(dir), call).toEqual([]);
    }
  });

  it('is refused when linking fails other than EEXIST or transiently, without retries (red: ENOSPC is retried or taken for a held lock)', async () => {
    const { dir, file } = target();
    let links = 0;
    const fs = wrapSeam((call) => {
      if (call === 'link') {
        links++;
        throw errno('ENOSPC');
      }
    });
    const err = await hostFailure(acquireLock(file, fs, 1_000));
    expect(err).toMatchObject({ reason: 'disk-full', code: 'ENOSPC' });
    expect(links).toBe(1);
    expect(strays(dir)).toEqual([]);
  });

  // Red with a second retry around the seam's: on Windows a lasting failure cost seven times
  // the seam's 2 s bound.
  it('tries a failing link once, leaving its retry to the seam, and fails with its errno (red: the lock retries what the seam already retried)', async () => {
    const { dir, file } = target();
    let links = 0;
    const fs = wrapSeam((call) => {
      if (call === 'link') {
        links++;
        throw errno('EBUSY');
      }
    });
    const err = await hostFailure(acquireLock(file, fs, 1_000));
    expect(err).toMatchObject({ reason: 'io-failure', code: 'EBUSY' });
    expect(links).toBe(1);
    expect(strays(dir)).toEqual([]);
  });

  it('rides out an unlink of the lock failing EPERM through the Windows seam, and gives up on ENOENT silently (red: a delete-pending name fails the release)', async () => {
    const { file, lock } = target();
    const owner = await acquireLock(file, nodeFs, 1_000);
    let unlinks = 0;
    const fs = windowsRetrying(
      wrapSeam((call, path) => {
        if (call === 'unlink' && path === lock && unlinks++ < 2) throw errno('EPERM');
      }),
    );
    await releaseLock(file, owner, fs);
    expect(unlinks).toBe(3);
    expect(existsSync(lock)).toBe(false);
  });

  it('is not removed by a release that is not its owner`s (red: one process releases another`s lock)', async () => {
    const { file, lock } = target();
    const owner = await acquireLock(file, nodeFs, 1_000);
    await releaseLock(file, { ...owner, nonce: 'someone-else' }, nodeFs);
    expect(existsSync(lock)).toBe(true);
    await releaseLock(file, owner, nodeFs);
    expect(existsSync(lock)).toBe(false);
  });

  it('is refreshed about every half second while held, and not once it names someone else (red: a live holder`s lease runs out, or a resumed holder keeps a broken lock alive)', async () => {
    const { file, lock } = target();
    const owner = await acquireLock(file, nodeFs, 1_000);
    const old = new Date('2020-01-01T00:00:00Z');
    utimesSync(lock, old, old);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(statSync(lock).mtimeMs).toBeGreaterThan(old.getTime() + 1_000);
    writeFileSync(lock, record({ nonce: 'theirs' }));
    utimesSync(lock, old, old);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(statSync(lock).mtimeMs).toBe(old.getTime());
    await releaseLock(file, owner, nodeFs);
    expect(existsSync(lock)).toBe(true);
  });

  it('stops refreshing once released (red: a released lock`s timer keeps touching a successor`s file)', async () => {
    const { file, lock } = target();
    const owner = await acquireLock(file, nodeFs, 1_000);
    await releaseLock(file, owner, nodeFs);
    // A later holder reusing the nonce would be refreshed by a timer left running.
    writeFileSync(lock, JSON.stringify(owner));
    const old = new Date('2020-01-01T00:00:00Z');
    utimesSync(lock, old, old);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(statSync(lock).mtimeMs).toBe(old.getTime());
  });
});

describe('readOwner', () => {
  it('reads the four fields and the identity strings, and nothing else (red: a foreign field or a non-string identity is trusted)', async () => {
    const { lock } = target();
    writeFileSync(
      lock,
      record({ pid: 7, bootId: 'b', pidNs: 'pid:[1]', startTime: '9', extra: 1, nonce: 'n' }),
    );
    expect(await readOwner(lock, nodeFs)).toEqual({
      pid: 7,
      hostname: hostname(),
      acquiredAt: '2026-01-01T00:00:00Z',
      nonce: 'n',
      bootId: 'b',
      pidNs: 'pid:[1]',
      startTime: '9',
    });
    writeFileSync(lock, record({ pid: 7, bootId: 1, pidNs: null, startTime: 9 }));
    expect(Object.keys((await readOwner(lock, nodeFs)) as LockOwner).sort()).toEqual([
      'acquiredAt',
      'hostname',
      'nonce',
      'pid',
    ]);
  });

  it('calls a record with any field missing, mistyped or overlong foreign (red: a foreign file is judged and broken)', async () => {
    const { lock } = target();
    const bad = [
      { pid: 1.5 },
      { pid: '7' },
      { pid: 2 ** 53 },
      { hostname: 1 },
      { acquiredAt: null },
      { nonce: 5 },
      { nonce: undefined },
      { pid: 0 },
      { pid: -1 },
      { hostname: 'h'.repeat(257) },
      { acquiredAt: 'a'.repeat(257) },
      { nonce: 'n'.repeat(257) },
      { bootId: 'b'.repeat(257) },
    ];
    for (const fields of bad) {
      writeFileSync(lock, record(fields));
      expect(await readOwner(lock, nodeFs), JSON.stringify(fields)).toBe('foreign');
    }
    writeFileSync(lock, record({ hostname: 'h'.repeat(256) }));
    expect(await readOwner(lock, nodeFs)).toMatchObject({ hostname: 'h'.repeat(256) });
    for (const text of ['', 'null', '[]', 'not json', '"x"', '\xff']) {
      writeFileSync(lock, text);
      expect(await readOwner(lock, nodeFs), text).toBe('foreign');
    }
    unlinkSync(lock);
    expect(await readOwner(lock, nodeFs)).toBe('gone');
  });
});

describe('inspectLock', () => {
  it('tells free, held by the living, stale when provably dead, and held when unreadable, naming only pid, host and time (red: status misreports the lock)', async () => {
    const { file, lock } = target();
    expect(await inspectLock(file, nodeFs)).toEqual({
      path: lock,
      state: 'free',
      holder: undefined,
    });
    writeFileSync(lock, 'not a lock');
    expect(await inspectLock(file, nodeFs)).toEqual({
      path: lock,
      state: 'held',
      holder: undefined,
    });
    const dead = deadPid();
    writeFileSync(lock, record({ pid: dead }));
    expect(await inspectLock(file, nodeFs)).toEqual({
      path: lock,
      state: 'stale',
      holder: { pid: dead, hostname: hostname(), acquiredAt: '2026-01-01T00:00:00Z' },
    });
    writeFileSync(lock, record({ pid: process.ppid }));
    expect((await inspectLock(file, nodeFs)).state).toBe('held');
  });

  it('calls this process`s own lock held, whatever its record says (red: status calls our own lock stale)', async () => {
    const { file, lock } = target();
    const owner = await acquireLock(file, nodeFs, 1_000);
    // Our own record, rewritten with a dead pid: the nonce alone says it is ours.
    writeFileSync(lock, JSON.stringify({ ...owner, pid: deadPid(), bootId: undefined }));
    expect((await inspectLock(file, nodeFs)).state).toBe('held');
    await releaseLock(file, owner, nodeFs);
  });
});

describe('timeouts and leases', () => {
  it('names the live holder and the lock in lock-timeout, and refuses a foreign lock at once (red: the user cannot tell who holds it)', async () => {
    const { file, lock } = target();
    writeFileSync(lock, record({ pid: process.ppid }));
    const err = await hostFailure(withLock(file, async () => 'entered', { timeoutMs: 20 }));
    expect(err).toMatchObject({
      reason: 'lock-timeout',
      path: lock,
      role: 'lock',
      holder: { pid: process.ppid, hostname: hostname(), acquiredAt: '2026-01-01T00:00:00Z' },
    });
    expect(Object.keys(err.holder ?? {}).sort()).toEqual(['acquiredAt', 'hostname', 'pid']);
    writeFileSync(lock, 'not a lock');
    const foreign = await hostFailure(withLock(file, async () => 'entered', { timeoutMs: 20 }));
    expect(foreign).toMatchObject({ reason: 'lock-foreign', path: lock, holder: undefined });
  });

  it('waits about as long as asked before lock-timeout (red: the deadline is ignored or never reached)', async () => {
    const { file, lock } = target();
    writeFileSync(lock, record({ pid: process.ppid }));
    const began = performance.now();
    await hostFailure(withLock(file, async () => 'entered', { timeoutMs: 200 }));
    const waited = performance.now() - began;
    expect(waited).toBeGreaterThanOrEqual(190);
    expect(waited).toBeLessThan(2_000);
  });

  it('breaks an unprobeable holder`s lock once it stayed unchanged for a lease, not before (red: a remote holder is robbed early, or never recovered)', async () => {
    const { dir, file, lock } = target();
    writeFileSync(lock, record({ hostname: 'another-host' }));
    const early = await hostFailure(
      withLock(file, async () => 'entered', { timeoutMs: 100, leaseMs: 5_000 }),
    );
    expect(early.reason).toBe('lock-timeout');
    const began = performance.now();
    expect(await withLock(file, async () => 'entered', { timeoutMs: 2_000, leaseMs: 150 })).toBe(
      'entered',
    );
    expect(performance.now() - began).toBeGreaterThanOrEqual(140);
    expect(strays(dir)).toEqual([]);
  });

  it('keeps waiting on an unprobeable holder that refreshes its lock (red: a lease holder that is alive is broken)', async () => {
    const { file, lock } = target();
    writeFileSync(lock, record({ hostname: 'another-host' }));
    let beat = 0;
    const timer = setInterval(() => {
      const at = new Date(Date.UTC(2021, 0, 1, 0, 0, ++beat));
      utimesSync(lock, at, at);
    }, 20);
    try {
      const err = await hostFailure(
        withLock(file, async () => 'entered', { timeoutMs: 400, leaseMs: 100 }),
      );
      expect(err.reason).toBe('lock-timeout');
    } finally {
      clearInterval(timer);
    }
    expect(existsSync(lock)).toBe(true);
  });

  it('fails with the errno when the stale lock cannot be examined (red: an lstat failure is taken for a missing lock)', async () => {
    const { file, lock } = target();
    writeFileSync(lock, record({}));
    const fs = wrapSeam((call, path) => {
      if (call === 'lstat' && path === lock) throw errno('EACCES');
    });
    const err = await hostFailure(withLock(file, async () => 'entered', { fs, timeoutMs: 300 }));
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EACCES' });
  });

  it('takes the lock when the dead holder`s file vanishes before it is examined (red: a lock released meanwhile is waited out)', async () => {
    const { file, lock } = target();
    writeFileSync(lock, record({}));
    const fs = wrapSeam((call, path) => {
      if (call === 'lstat' && path === lock && existsSync(lock)) unlinkSync(lock);
    });
    expect(await withLock(file, async () => 'entered', { fs, timeoutMs: 300 })).toBe('entered');
  });
});

describe('break files', () => {
  const breaks = (lock: string, n: number) => `${lock}${'.break'.repeat(n)}`;

  it('clears dead break files at every level up to four deep after taking the lock, never a fifth, a live or an unreadable one (red: the clean-up depth changed or it removes a live breaker`s file)', async () => {
    const { dir, file, lock } = target();
    for (const n of [1, 2, 3, 4, 5]) writeFileSync(breaks(lock, n), record({}));
    expect(await withLock(file, async () => 'entered', { timeoutMs: 300 })).toBe('entered');
    expect(strays(dir)).toEqual(['hooks.json.cursorhooks-lock.break.break.break.break.break']);
    unlinkSync(breaks(lock, 5));
    writeFileSync(breaks(lock, 1), record({ pid: process.ppid }));
    writeFileSync(breaks(lock, 2), 'not a lock');
    expect(await withLock(file, async () => 'entered', { timeoutMs: 300 })).toBe('entered');
    expect(strays(dir).sort()).toEqual([
      'hooks.json.cursorhooks-lock.break',
      'hooks.json.cursorhooks-lock.break.break',
    ]);
  });

  it('keeps the lock just taken when clearing break files fails (red: a failed clean-up loses the lock)', async () => {
    const { file, lock } = target();
    writeFileSync(breaks(lock, 1), record({}));
    const fs = wrapSeam((call, path) => {
      if (call === 'unlink' && path === breaks(lock, 1)) throw errno('EIO');
      if (call === 'open' && path === breaks(lock, 2)) throw errno('EIO');
    });
    expect(await withLock(file, async () => 'entered', { fs, timeoutMs: 300 })).toBe('entered');
    expect(existsSync(breaks(lock, 1))).toBe(true);
  });

  it('gives up breaking below three dead levels and times out rather than guess (red: the break depth is unbounded or shallower)', async () => {
    const { file, lock } = target();
    // The lock and four break levels all dead: a breaker may break three levels deep only.
    for (const n of [0, 1, 2, 3, 4]) writeFileSync(breaks(lock, n), record({}));
    const err = await hostFailure(withLock(file, async () => 'entered', { timeoutMs: 300 }));
    expect(err.reason).toBe('lock-timeout');
    expect(existsSync(breaks(lock, 4))).toBe(true);
    unlinkSync(breaks(lock, 4));
    expect(await withLock(file, async () => 'entered', { timeoutMs: 1_000 })).toBe('entered');
  });

  it('does not break a lock whose record changed while its break file was taken (red: a lock re-taken by a live process is removed)', async () => {
    const { file, lock } = target();
    writeFileSync(lock, record({}));
    let swapped = false;
    const fs = wrapSeam((call, path) => {
      // Right after the breaker takes the break file, a live process has the lock instead.
      if (call === 'open' && path === lock && existsSync(breaks(lock, 1)) && !swapped) {
        swapped = true;
        writeFileSync(lock, record({ pid: process.ppid, nonce: 'live' }));
      }
    });
    const err = await hostFailure(withLock(file, async () => 'entered', { fs, timeoutMs: 100 }));
    expect(err.reason).toBe('lock-timeout');
    expect(swapped).toBe(true);
    expect(JSON.parse(readFileSync(lock, 'utf8')).nonce).toBe('live');
    expect(existsSync(breaks(lock, 1))).toBe(false);
  });

  it('does not break a stale lock refreshed after it was judged (red: a lease holder that refreshed is broken)', async () => {
    const { file, lock } = target();
    writeFileSync(lock, record({}));
    let touched = false;
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === lock && existsSync(breaks(lock, 1)) && !touched) {
        touched = true;
        const at = new Date('2022-01-01T00:00:00Z');
        utimesSync(lock, at, at);
      }
    });
    // Once refreshed, the next round judges the dead holder again and breaks it then.
    expect(await withLock(file, async () => 'entered', { fs, timeoutMs: 1_000 })).toBe('entered');
    expect(touched).toBe(true);
  });
});

describe('edges a deadline of zero shows', () => {
  // With no time to wait, only an immediate retry can still take the lock.
  it('takes a lock released between its failed link and reading it (red: a lock just freed is waited for, or timed out on)', async () => {
    const { file, lock } = target();
    writeFileSync(lock, record({ pid: process.ppid }));
    let released = false;
    const fs: FsSeam = {
      ...nodeFs,
      link: async (from, to) => {
        try {
          await nodeFs.link(from, to);
        } finally {
          if (to === lock && !released) {
            released = true;
            unlinkSync(lock);
          }
        }
      },
    };
    expect(await withLock(file, async () => 'entered', { fs, timeoutMs: 0 })).toBe('entered');
    expect(released).toBe(true);
  });

  it('takes a dead holder`s lock at once after breaking it (red: a broken lock is slept on before it is taken)', async () => {
    const { dir, file, lock } = target();
    writeFileSync(lock, record({}));
    expect(await withLock(file, async () => 'entered', { timeoutMs: 0 })).toBe('entered');
    expect(strays(dir)).toEqual([]);
  });

  // lstat of the lock fails as if it vanished, while the record still reads: nothing to compare.
  it('does not break a dead holder`s lock whose file state cannot be read (red: a lock is broken without the state it was judged on)', async () => {
    const { file, lock } = target();
    writeFileSync(lock, record({}));
    const fs: FsSeam = {
      ...nodeFs,
      lstat: async (path) => {
        if (path === lock) throw errno('ENOENT');
        return nodeFs.lstat(path);
      },
    };
    const err = await hostFailure(withLock(file, async () => 'entered', { fs, timeoutMs: 0 }));
    expect(err.reason).toBe('lock-timeout');
    expect(existsSync(lock)).toBe(true);
  });
});

describe('who is never broken', () => {
  it('a live holder on this host, however long it leaves its lock unrefreshed (red: a live local holder is robbed once a lease passes)', async () => {
    const { file, lock } = target();
    // Our parent, with the identity that proves it alive: boot, pid namespace and start time.
    const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    writeFileSync(lock, record({ pid: process.ppid, ...selfIdentity(), startTime }));
    const err = await hostFailure(
      withLock(file, async () => 'entered', { timeoutMs: 300, leaseMs: 30 }),
    );
    expect(err.reason).toBe('lock-timeout');
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(process.ppid);
  });

  it('a lock this process holds in another call chain, between its refreshes (red: our own lock is judged by a lease and broken)', async () => {
    const { file } = target();
    let inside = 0;
    const holding = withLock(file, async () => {
      inside++;
      await new Promise((resolve) => setTimeout(resolve, 400));
      inside--;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const err = await hostFailure(
      withLock(
        file,
        async () => {
          inside++;
        },
        { timeoutMs: 250, leaseMs: 30 },
      ),
    );
    expect(err.reason).toBe('lock-timeout');
    await holding;
    expect(inside).toBe(0);
  });

  it('a lease holder that refreshes while its lock is being broken (red: a refreshed, living holder loses its lock)', async () => {
    const { file, lock } = target();
    writeFileSync(lock, record({ hostname: 'another-host' }));
    let beat = 0;
    // Each time a breaker holds the break file and reads the lock, the remote holder refreshes.
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === lock && existsSync(`${lock}.break`)) {
        const at = new Date(Date.UTC(2021, 0, 1, 0, 0, ++beat));
        utimesSync(lock, at, at);
      }
    });
    const err = await hostFailure(
      withLock(file, async () => 'entered', { fs, timeoutMs: 300, leaseMs: 30 }),
    );
    expect(err.reason).toBe('lock-timeout');
    expect(beat).toBeGreaterThan(0);
    expect(existsSync(lock)).toBe(true);
  });
});

describe('waiting', () => {
  it('sleeps 2, 4, 8, 16 and 32 ms between tries, then 50 ms, each times 0.5 + a random fraction (red: the backoff doubling, its start, its cap or its jitter changed)', async () => {
    // The pauses are recorded, not slept: a count of tries in a stretch of wall time would
    // depend on how busy the machine is.
    const delays: number[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.resetModules();
    vi.doMock('../../src/node/write/sleep.js', () => ({
      sleep: async (ms: number) => {
        delays.push(ms);
        if (delays.length === 8) release();
      },
    }));
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.25);
    try {
      const { withLock: lock } = await import('../../src/node/lock/lock.js');
      const { file } = target();
      let entered: () => void = () => undefined;
      const holding = lock(
        file,
        () =>
          new Promise<void>((resolve) => {
            entered();
            void released.then(resolve);
          }),
      );
      await new Promise<void>((resolve) => {
        entered = resolve;
      });
      expect(await lock(file, async () => 'entered', { timeoutMs: 60_000 })).toBe('entered');
      await holding;
      expect(delays.slice(0, 8)).toEqual([1.5, 3, 6, 12, 24, 37.5, 37.5, 37.5]);
      expect(delays.slice(5).every((ms) => ms === 37.5)).toBe(true);
    } finally {
      random.mockRestore();
      vi.doUnmock('../../src/node/write/sleep.js');
      vi.resetModules();
    }
  });

  it('reads the lock without the empty-file settle delay, naming the lock in a failure (red: each wait on an empty lock costs 100 ms, or its failure blames the hook file)', async () => {
    const { lock } = target();
    writeFileSync(lock, '');
    let opens = 0;
    const fs = wrapSeam((call) => {
      if (call === 'open') opens++;
    });
    expect(await readOwner(lock, fs)).toBe('foreign');
    expect(opens).toBe(0);
    writeFileSync(lock, record({}));
    const failing = wrapSeam((call) => {
      if (call === 'open') throw errno('EACCES');
    });
    const err = await hostFailure(readOwner(lock, failing));
    expect(err).toMatchObject({ reason: 'permission-denied', role: 'lock', path: lock });
  });

  it('releases a lock already gone without failing (red: a lock swept meanwhile fails the finished run)', async () => {
    const { file, lock } = target();
    const owner = await acquireLock(file, nodeFs, 1_000);
    const fs = wrapSeam((call, path) => {
      if (call === 'unlink' && path === lock && existsSync(lock)) unlinkSync(lock);
    });
    await releaseLock(file, owner, fs);
    expect(existsSync(lock)).toBe(false);
  });
});

describe('module constants, evaluated inside the test', () => {
  // A fresh copy of lock.ts: its constants are evaluated at import, and a mutation run switches
  // a mutant in only for code evaluated after the test began.
  async function freshLock(): Promise<typeof import('../../src/node/lock/lock.js')> {
    vi.resetModules();
    return import('../../src/node/lock/lock.js');
  }

  it('rides out each of EPERM, EACCES and EBUSY on the lock name through the Windows seam (red: a transient Windows error fails the run)', async () => {
    const { withLock: lock } = await freshLock();
    for (const code of ['EPERM', 'EACCES', 'EBUSY']) {
      const { dir, file } = target();
      let failed = false;
      const fs = windowsRetrying(
        wrapSeam((call) => {
          if (call === 'link' && !failed) {
            failed = true;
            throw errno(code);
          }
        }),
      );
      expect(await lock(file, async () => 'entered', { fs }), code).toBe('entered');
      expect(strays(dir), code).toEqual([]);
    }
  });

  it('clears a dead break file named <lock>.break (red: the break suffix changed and old break files stay)', async () => {
    const { withLock: lock } = await freshLock();
    const { dir, file, lock: lockPath } = target();
    writeFileSync(`${lockPath}.break`, record({}));
    expect(await lock(file, async () => 'entered', { timeoutMs: 300 })).toBe('entered');
    expect(strays(dir)).toEqual([]);
  });
});
