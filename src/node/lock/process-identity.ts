// Who a process is, beyond its pid, where Linux shows it: the boot, the pid namespace and the
// start time. A pid alone is not a proof of life: containers reuse low pids, a namespace-local pid
// names some other process on the host, and a killed but unreaped process still answers kill(0).
// These are probes of processes, not of the kit's files, so they bypass the fs seam.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { errnoOf } from '../errors.js';

/** What a lock record says about its writer besides pid and host name; absent without /proc. */
export interface ProcessIdentity {
  readonly bootId?: string;
  readonly pidNs?: string;
  readonly startTime?: string;
}

/**
 * What a probe of a recorded process proves. `maybe-alive`: it ran on this machine and a process
 * may still be it (a pid that answers without /proc, a pid namespace we cannot see into): only a
 * long ceiling breaks it. `unknown`: another machine or boot, judged by a lease.
 */
export type Liveness = 'dead' | 'alive' | 'maybe-alive' | 'unknown';

/**
 * How long a `maybe-alive` holder may leave its record unrefreshed: hours, not seconds, so a
 * stopped (Ctrl-Z) or slow holder keeps its lock; a pid reused by another process ends it.
 */
export const MAY_BE_ALIVE_CEILING_MS = 2 * 60 * 60 * 1000;

/** The initial pid namespace's fixed inode (PROC_PID_INIT_INO): from it every process is seen. */
const ROOT_PID_NS = `pid:[${0xeffffffc}]`;

let self: ProcessIdentity | undefined;

/** This process's identity, read once. */
export function selfIdentity(): ProcessIdentity {
  if (self === undefined) {
    const bootId = readOrUndefined(() =>
      readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
    );
    // A /proc mounted for another pid namespace (unshare --pid without --mount-proc, some
    // sandboxes) shows other processes under our pids: trusted only when it shows us as us.
    const own = readOrUndefined(() => statOf('self')?.pid);
    const trusted = own === String(process.pid);
    const pidNs = trusted ? readOrUndefined(() => readlinkSync('/proc/self/ns/pid')) : undefined;
    const startTime = trusted ? readOrUndefined(() => statOf('self')?.startTime) : undefined;
    self = {
      ...(bootId === undefined ? {} : { bootId }),
      ...(pidNs === undefined ? {} : { pidNs }),
      ...(startTime === undefined ? {} : { startTime }),
    };
  }
  return self;
}

type Recorded = ProcessIdentity & { readonly pid: number; readonly hostname: string };

/**
 * Whether the process a record names still runs. Same boot and pid namespace: /proc/PID/stat
 * decides. Same boot, another pid namespace: seen from the initial namespace, where every process
 * shows, the namespace's own pids decide; from anywhere else it may be alive. Without a boot id on
 * either side, a pid on the same host name that answers kill(0) may be alive, one that does not is
 * dead. Another boot or host proves nothing. Our own pid is never judged.
 */
export function liveness(record: Recorded): Liveness {
  const mine = selfIdentity();
  if (record.bootId !== undefined && record.bootId === mine.bootId) {
    const { startTime, pidNs } = record;
    if (startTime === undefined || pidNs === undefined) return 'maybe-alive';
    if (pidNs !== mine.pidNs) return inOtherNamespace(record.pid, pidNs, startTime);
    return byStat(String(record.pid), startTime);
  }
  // One side without /proc (macOS, Windows, a tmpfs over it): the host name stands in for the
  // boot. A pid that is gone is proof only where the record names no boot we could not see, and
  // on Linux only from the initial pid namespace: a waiter inside another cannot see the holder.
  // Not checked: a holder without /proc inside a nested namespace, whose own pid numbering the
  // initial namespace does not share (a container always has its own /proc).
  const bootUnknown = record.bootId === undefined || mine.bootId === undefined;
  if (bootUnknown && record.hostname === hostname() && record.pid !== process.pid) {
    if (pidAlive(record.pid)) return 'maybe-alive';
    if (record.bootId === undefined) return seesEveryPid(mine) ? 'dead' : 'maybe-alive';
  }
  return 'unknown';
}

/** Whether kill(2) here reaches every process: off Linux, or from the initial pid namespace. */
function seesEveryPid(mine: ProcessIdentity): boolean {
  return process.platform !== 'linux' || mine.pidNs === ROOT_PID_NS;
}

/** Whether a process with this pid exists here (EPERM: it exists, not ours). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoOf(err) === 'EPERM';
  }
}

/** /proc/PID/stat against a recorded start time: gone, another start or a zombie is dead. */
function byStat(pid: string, startTime: string): Liveness {
  let stat: ProcStat | undefined;
  try {
    stat = statOf(pid);
  } catch (err) {
    return errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ESRCH' ? 'dead' : 'maybe-alive';
  }
  if (stat === undefined) return 'maybe-alive';
  return stat.state === 'Z' || stat.state === 'X' || stat.startTime !== startTime
    ? 'dead'
    : 'alive';
}

/**
 * A record from another pid namespace of this boot. From the initial namespace every process
 * shows: the one numbered `pid` inside a nested namespace (NSpid) that is the record's is the
 * holder, judged by its start time; none is a dead holder (its namespace may be gone with it).
 * A candidate we may not inspect, a time namespace (start times shift with it) or any other view
 * proves nothing.
 */
function inOtherNamespace(pid: number, pidNs: string, startTime: string): Liveness {
  if (selfIdentity().pidNs !== ROOT_PID_NS) return 'maybe-alive';
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return 'maybe-alive';
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let nested: readonly string[];
    let namespace: string;
    try {
      // NSpid first: it needs no permission, and a process of the initial namespace (one
      // field) is never the holder, so an uninspectable one there hides nothing.
      nested = nestedPids(name);
      if (nested.length < 2 || nested.at(-1) !== String(pid)) continue;
      namespace = readlinkSync(`/proc/${name}/ns/pid`);
    } catch (err) {
      // Exited while we looked: not the holder. Anything else (EACCES) hides a candidate.
      if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ESRCH') continue;
      return 'maybe-alive';
    }
    if (namespace !== pidNs) continue;
    const verdict = byStat(name, startTime);
    // A start time shifted by a time namespace is no proof of another process; a zombie is.
    const shifted = timeNamespace(name) !== timeNamespace('self') && !exited(name);
    return verdict === 'dead' && shifted ? 'maybe-alive' : verdict;
  }
  return 'dead';
}

/** The NSpid fields of /proc/PID/status: the pid in each namespace, the innermost last. */
function nestedPids(pid: string): readonly string[] {
  const line = /^NSpid:(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (line === undefined) throw Object.assign(new Error('no NSpid'), { code: 'EACCES' });
  return line.trim().split(/\s+/);
}

/** Whether the process is a zombie or exiting (or gone), whatever its start time. */
function exited(pid: string): boolean {
  const state = readOrUndefined(() => statOf(pid)?.state);
  return state === undefined || state === 'Z' || state === 'X';
}

/** The time namespace of a process; one kernel without them gives undefined for every process. */
function timeNamespace(pid: string): string | undefined {
  return readOrUndefined(() => readlinkSync(`/proc/${pid}/ns/time`));
}

interface ProcStat {
  readonly pid: string;
  readonly state: string;
  readonly startTime: string;
}

/** State (field 3) and start time (field 22) of /proc/PID/stat; the name in parentheses may hold anything. */
function statOf(pid: string): ProcStat | undefined {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  const own = text.slice(0, text.indexOf(' '));
  return state === undefined || startTime === undefined
    ? undefined
    : { pid: own, state, startTime };
}

function readOrUndefined<T>(read: () => T | undefined): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
