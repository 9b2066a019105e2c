// Who a process is and whether a recorded one still runs, against a /proc the test writes: a fresh
// copy of process-identity.ts is imported with node:fs's two read calls answered from a table
// (everything else reads as absent), so each branch of selfIdentity, statOf and liveness is
// reached on purpose. One case reads the real /proc of this worker.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errno } from './support.js';

type Module = typeof import('../../src/node/lock/process-identity.js');

/** A /proc/PID/stat line: fields 3 (state) and 22 (start time), the rest filler. */
function statLine(pid: number | string, state: string, startTime: string, name = 'node'): string {
  // Fields 4..21 are 18 fillers, then the start time, then a few more.
  const middle = Array.from({ length: 18 }, (_, i) => String(i + 1)).join(' ');
  return `${pid} (${name}) ${state} ${middle} ${startTime} 7 8 9\n`;
}

const SELF = statLine(process.pid, 'R', '5000');

/** The files and links of a fake /proc; an Error value is what reading that path throws. */
interface Proc {
  readonly files?: Record<string, string | Error>;
  readonly links?: Record<string, string | Error>;
  /** What reading /proc lists; an Error is thrown. Absent: ENOENT. */
  readonly listing?: readonly string[] | Error;
}

const HOST_FILES = { '/proc/sys/kernel/random/boot_id': 'boot-1\n', '/proc/self/stat': SELF };
const HOST_LINKS = { '/proc/self/ns/pid': 'pid:[11]' };
const HOST_PROC = { files: HOST_FILES, links: HOST_LINKS };

function answer(table: Record<string, string | Error> | undefined, path: string): string {
  const value = table?.[path];
  if (value instanceof Error) throw value;
  if (value === undefined) throw errno('ENOENT');
  return value;
}

async function withProc(proc: Proc): Promise<Module> {
  vi.resetModules();
  vi.doMock('node:fs', async (importOriginal) => {
    const real = await importOriginal<typeof import('node:fs')>();
    return {
      ...real,
      readFileSync: (path: string) => answer(proc.files, path),
      readlinkSync: (path: string) => answer(proc.links, path),
      readdirSync: (path: string) => {
        if (path !== '/proc' || proc.listing === undefined) throw errno('ENOENT');
        if (proc.listing instanceof Error) throw proc.listing;
        return proc.listing;
      },
    };
  });
  return import('../../src/node/lock/process-identity.js');
}

afterEach(() => {
  vi.doUnmock('node:fs');
  vi.restoreAllMocks();
});

/** A record naming pid 42 as written on this host's fake /proc. */
const record = (fields: Record<string, unknown> = {}) => ({
  pid: 42,
  hostname: hostname(),
  bootId: 'boot-1',
  pidNs: 'pid:[11]',
  startTime: '777',
  ...fields,
});

describe('selfIdentity', () => {
  it('reads boot id, pid namespace and start time from the real /proc, once (red: a field misread, or re-read per call)', async () => {
    vi.resetModules();
    const { selfIdentity } = await import('../../src/node/lock/process-identity.js');
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const expected = {
      bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      pidNs: readlinkSync('/proc/self/ns/pid'),
      startTime: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19],
    };
    const first = selfIdentity();
    expect(first).toStrictEqual(expected);
    expect(selfIdentity()).toBe(first);
  });

  it('trims the boot id and takes field 22 after the last parenthesis of a name holding ") " (red: the start time is read from inside the name)', async () => {
    const name = 'a) b) Z 9 9';
    const { selfIdentity } = await withProc({
      ...HOST_PROC,
      files: { ...HOST_FILES, '/proc/self/stat': statLine(process.pid, 'R', '5000', name) },
    });
    expect(selfIdentity()).toStrictEqual({
      bootId: 'boot-1',
      pidNs: 'pid:[11]',
      startTime: '5000',
    });
  });

  it('leaves the namespace and start time out when /proc shows another pid as self (red: a foreign namespace is trusted)', async () => {
    const { selfIdentity } = await withProc({
      ...HOST_PROC,
      files: { ...HOST_FILES, '/proc/self/stat': statLine(process.pid + 1, 'R', '5000') },
    });
    expect(selfIdentity()).toStrictEqual({ bootId: 'boot-1' });
  });

  it('leaves them out when its own stat line is cut short (red: a short line is trusted)', async () => {
    const { selfIdentity } = await withProc({
      ...HOST_PROC,
      files: { ...HOST_FILES, '/proc/self/stat': `${process.pid} (node) R 1 2` },
    });
    expect(selfIdentity()).toStrictEqual({ bootId: 'boot-1' });
  });

  it('has no keys at all without /proc, and only the ones it could read (red: absent fields present as undefined)', async () => {
    expect((await withProc({})).selfIdentity()).toStrictEqual({});
    const noLink = await withProc({ files: HOST_FILES });
    expect(noLink.selfIdentity()).toStrictEqual({ bootId: 'boot-1', startTime: '5000' });
    const noBoot = await withProc({
      files: { '/proc/self/stat': SELF },
      links: HOST_LINKS,
    });
    expect(noBoot.selfIdentity()).toStrictEqual({ pidNs: 'pid:[11]', startTime: '5000' });
  });
});

describe('liveness on the same boot and namespace', () => {
  const withPid42 = (stat: string | Error) =>
    withProc({ ...HOST_PROC, files: { ...HOST_FILES, '/proc/42/stat': stat } });

  it('is alive when /proc shows the pid running with the recorded start time (red: a live holder is broken)', async () => {
    const { liveness } = await withPid42(statLine(42, 'S', '777'));
    expect(liveness(record())).toBe('alive');
  });

  it('is dead for a zombie, an exiting process, or another start time (red: a reused or unreaped pid holds the lock forever)', async () => {
    for (const [state, start] of [
      ['Z', '777'],
      ['X', '777'],
      ['S', '778'],
    ] as const) {
      const { liveness } = await withPid42(statLine(42, state, start));
      expect(liveness(record()), `${state} ${start}`).toBe('dead');
    }
  });

  it('is dead when the pid is gone (ENOENT, ESRCH), maybe alive on any other read failure or a short line (red: an unreadable /proc breaks a live lock)', async () => {
    expect((await withPid42(errno('ENOENT'))).liveness(record())).toBe('dead');
    expect((await withPid42(errno('ESRCH'))).liveness(record())).toBe('dead');
    expect((await withPid42(errno('EACCES'))).liveness(record())).toBe('maybe-alive');
    expect((await withPid42('42 (node) S 1')).liveness(record())).toBe('maybe-alive');
  });

  it('proves nothing from another boot, and takes this boot without namespace or start time as maybe alive (red: a foreign pid is judged by our /proc, or a holder on this machine loses its lock to a lease)', async () => {
    const { liveness } = await withPid42(statLine(42, 'S', '1'));
    expect(liveness(record({ bootId: 'boot-2' }))).toBe('unknown');
    // Our namespace is not the initial one, so another one cannot be seen into.
    expect(liveness(record({ pidNs: 'pid:[12]' }))).toBe('maybe-alive');
    expect(liveness(record({ startTime: undefined }))).toBe('maybe-alive');
    expect(liveness(record({ pidNs: undefined }))).toBe('maybe-alive');
  });
});

describe('liveness of a holder in another pid namespace, seen from the initial one', () => {
  const ROOT = `pid:[${0xeffffffc}]`;
  const CHILD = 'pid:[4026532999]';
  /** A /proc seen from the initial namespace, holding `processes` (host pid → its files). */
  const fromRoot = (
    processes: Record<
      string,
      { ns: string | Error; nspid?: string; stat?: string; time?: string | Error }
    >,
    listing: readonly string[] = ['self', '1', ...Object.keys(processes)],
  ) => {
    const files: Record<string, string | Error> = { ...HOST_FILES };
    const links: Record<string, string | Error> = {
      '/proc/self/ns/pid': ROOT,
      '/proc/self/ns/time': 'time:[1]',
      '/proc/1/ns/pid': ROOT,
    };
    for (const [pid, { ns, nspid, stat, time }] of Object.entries(processes)) {
      links[`/proc/${pid}/ns/pid`] = ns;
      links[`/proc/${pid}/ns/time`] = time ?? 'time:[1]';
      if (nspid !== undefined) files[`/proc/${pid}/status`] = `Name:\tnode\nNSpid:\t${nspid}\n`;
      if (stat !== undefined) files[`/proc/${pid}/stat`] = stat;
    }
    return withProc({ files, links, listing });
  };
  const holder = record({ pid: 2, pidNs: CHILD });

  it('is alive when its namespace shows its pid with its start time (red: a live container holder is broken by a lease)', async () => {
    const { liveness } = await fromRoot({
      '900': { ns: CHILD, nspid: '900\t1', stat: statLine(900, 'S', '5') },
      '901': { ns: CHILD, nspid: '901\t2', stat: statLine(901, 'S', '777') },
    });
    expect(liveness(holder)).toBe('alive');
  });

  it('is dead when its namespace is gone, holds no such pid, or shows it restarted or a zombie (red: a killed container holder leaves its lock and side files forever)', async () => {
    expect((await fromRoot({})).liveness(holder)).toBe('dead');
    const other = await fromRoot({
      '900': { ns: CHILD, nspid: '900\t1', stat: statLine(900, 'S', '777') },
    });
    expect(other.liveness(holder)).toBe('dead');
    for (const stat of [statLine(901, 'S', '778'), statLine(901, 'Z', '777')]) {
      const { liveness } = await fromRoot({ '901': { ns: CHILD, nspid: '901\t2', stat } });
      expect(liveness(holder)).toBe('dead');
    }
    // A zombie shows no time namespace at all: it is dead, not shifted.
    const zombie = await fromRoot({
      '901': { ns: CHILD, nspid: '901\t2', stat: statLine(901, 'Z', '1'), time: errno('ENOENT') },
    });
    expect(zombie.liveness(holder)).toBe('dead');
  });

  it('skips processes that exit while it looks, and uninspectable ones of the initial namespace (red: a vanished process or pid 1 makes a dead holder look alive forever)', async () => {
    const { liveness } = await fromRoot({
      '903': { ns: errno('ENOENT'), nspid: '903\t2' },
      '904': { ns: errno('EACCES'), nspid: '904' },
      '905': { ns: CHILD },
    });
    expect(liveness(holder)).toBe('dead');
  });

  it('is maybe alive when a candidate cannot be inspected, has no NSpid line, runs in another time namespace, or /proc cannot be listed (red: a holder we cannot see is taken for dead)', async () => {
    const hidden = await fromRoot({ '903': { ns: errno('EACCES'), nspid: '903\t2' } });
    expect(hidden.liveness(holder)).toBe('maybe-alive');
    const files: Record<string, string> = { ...HOST_FILES, '/proc/901/status': 'Name:\tnode\n' };
    const noLine = await withProc({
      files,
      links: { '/proc/self/ns/pid': ROOT, '/proc/901/ns/pid': CHILD },
      listing: ['901'],
    });
    expect(noLine.liveness(holder)).toBe('maybe-alive');
    const shifted = await fromRoot({
      '901': { ns: CHILD, nspid: '901\t2', stat: statLine(901, 'S', '1'), time: 'time:[2]' },
    });
    expect(shifted.liveness(holder)).toBe('maybe-alive');
    const unlisted = await withProc({
      files: HOST_FILES,
      links: { '/proc/self/ns/pid': ROOT },
      listing: errno('EACCES'),
    });
    expect(unlisted.liveness(holder)).toBe('maybe-alive');
  });

  it('does not look from a namespace other than the initial one (red: a sibling container is judged by the pids we happen to see)', async () => {
    const { liveness } = await withProc({ ...HOST_PROC, listing: ['self'] });
    expect(liveness(holder)).toBe('maybe-alive');
  });
});

describe('liveness without /proc', () => {
  it('trusts a dead pid on the same host name only, and never judges its own pid (red: a record from another machine is broken)', async () => {
    // The waiter in the initial pid namespace, where kill(2) reaches every process.
    const { liveness } = await withProc({
      files: HOST_FILES,
      links: { '/proc/self/ns/pid': `pid:[${0xeffffffc}]` },
    });
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => {
      throw errno('ESRCH');
    });
    const bare = { pid: 42, hostname: hostname() };
    expect(liveness(bare)).toBe('dead');
    expect(kill).toHaveBeenCalledWith(42, 0);
    expect(liveness({ ...bare, hostname: `${hostname()}-elsewhere` })).toBe('unknown');
    expect(liveness({ ...bare, pid: process.pid })).toBe('unknown');
  });

  it('is maybe alive while the pid answers, with or without a boot id recorded (red: a live holder on macOS, Windows or under a tmpfs /proc loses its lock to a 3 s lease)', async () => {
    const { liveness } = await withProc({});
    vi.spyOn(process, 'kill').mockImplementation(() => true);
    // With a start time, so a check of the boot id skipped would read /proc/42/stat (absent: dead).
    expect(liveness({ pid: 42, hostname: hostname(), startTime: '777' })).toBe('maybe-alive');
    expect(liveness({ pid: 42, hostname: hostname(), bootId: 'boot-1' })).toBe('maybe-alive');
    expect(liveness({ pid: 42, hostname: `${hostname()}-elsewhere` })).toBe('unknown');
  });

  // Red before: a waiter inside a pid namespace (or without /proc) broke at once the lock of a
  // live holder whose record had no boot id, which kill(2) from there cannot see.
  it.skipIf(process.platform !== 'linux')(
    "keeps a gone pid of a record without boot id maybe alive where the waiter is not in the initial pid namespace (red: a live holder outside the waiter's namespace loses its lock at once)",
    async () => {
      for (const proc of [HOST_PROC, {}]) {
        const { liveness } = await withProc(proc);
        vi.spyOn(process, 'kill').mockImplementation(() => {
          throw errno('ESRCH');
        });
        expect(liveness({ pid: 42, hostname: hostname() })).toBe('maybe-alive');
        vi.restoreAllMocks();
      }
    },
  );

  it('does not judge a record with a boot id dead by the pid alone (red: a record from another boot is broken by kill(0))', async () => {
    const { liveness } = await withProc({});
    vi.spyOn(process, 'kill').mockImplementation(() => {
      throw errno('ESRCH');
    });
    expect(liveness({ pid: 42, hostname: hostname(), bootId: 'boot-1' })).toBe('unknown');
  });
});

describe('pidAlive', () => {
  it('counts EPERM as alive and any other failure as gone (red: a process of another user is judged dead)', async () => {
    const { pidAlive } = await withProc({});
    const kill = vi.spyOn(process, 'kill');
    kill.mockImplementation(() => {
      throw errno('EPERM');
    });
    expect(pidAlive(42)).toBe(true);
    kill.mockImplementation(() => {
      throw errno('ESRCH');
    });
    expect(pidAlive(42)).toBe(false);
    kill.mockImplementation(() => true);
    expect(pidAlive(42)).toBe(true);
  });
});
