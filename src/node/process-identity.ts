// Who a process is, beyond its pid, where Linux shows it: the boot, the pid namespace and the
// start time. A pid alone is not a proof of life: containers reuse low pids, a namespace-local pid
// names some other process on the host, and a killed but unreaped process still answers kill(0).
// These are probes of processes, not of the kit's files, so they bypass the fs seam.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { errnoOf } from './errors.js';

/** What a lock record says about its writer besides pid and host name; absent without /proc. */
export interface ProcessIdentity {
  readonly bootId?: string;
  readonly pidNs?: string;
  readonly startTime?: string;
}

/** What a probe of a recorded process proves: dead, alive, or nothing (judge it by a lease). */
export type Liveness = 'dead' | 'alive' | 'unknown';

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

/**
 * Whether the process a record names still runs. Same boot and pid namespace: /proc/PID/stat
 * decides (gone, another start time, or a zombie is dead). Without /proc on either side, a pid
 * is trusted on the same host name only, and our own pid is never judged. Anything else (another
 * namespace, boot or host name) proves nothing.
 */
export function liveness(
  record: ProcessIdentity & { readonly pid: number; readonly hostname: string },
): Liveness {
  const mine = selfIdentity();
  if (
    record.bootId !== undefined &&
    record.startTime !== undefined &&
    record.bootId === mine.bootId &&
    record.pidNs === mine.pidNs
  ) {
    let stat: ProcStat | undefined;
    try {
      stat = statOf(String(record.pid));
    } catch (err) {
      return errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ESRCH' ? 'dead' : 'unknown';
    }
    if (stat === undefined) return 'unknown';
    if (stat.state === 'Z' || stat.state === 'X' || stat.startTime !== record.startTime) {
      return 'dead';
    }
    return 'alive';
  }
  if (
    record.bootId === undefined &&
    record.hostname === hostname() &&
    record.pid !== process.pid &&
    !pidAlive(record.pid)
  ) {
    return 'dead';
  }
  return 'unknown';
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

function readOrUndefined(read: () => string | undefined): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
