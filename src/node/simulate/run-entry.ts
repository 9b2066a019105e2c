// One run of a hook command the way Cursor runs it on this platform: POSIX `/bin/sh -c` (the
// Windows family: pwsh in Cursor's wrapper), in the hook file's directory, a minimal
// environment, the payload on stdin, under the entry's timeout. The command runs in a process
// group of its own, so a timeout kills the observer and everything it started.
import { type ChildProcess, spawn } from 'node:child_process';

/** Every reply Cursor acts on is a few bytes; the rest of a long one is counted, not kept. */
export const MAX_REPLY_BYTES = 64 * 1024;

export interface EntryLaunch {
  /** The program and its arguments: `/bin/sh -c <command>`, or pwsh and the wrapper. */
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

export interface EntryRunOptions {
  readonly payload: Uint8Array;
  readonly timeoutMs: number;
  /** Keep stdin open after the payload until the entry exits or times out (Cursor may). */
  readonly holdStdinOpen?: boolean;
  /** Close the read end of stdout at once: the entry's writes fail with EPIPE. */
  readonly closeStdout?: boolean;
}

export interface EntryRun {
  /** The exit code; null when a signal ended it. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The entry had not exited, or had not closed stdout, by the timeout: it was killed. */
  readonly timedOut: boolean;
  /** From the start to the exit and the end of stdout (or to the kill). */
  readonly durationMs: number;
  /** At most MAX_REPLY_BYTES of stdout. */
  readonly stdout: Uint8Array;
  /** All the bytes stdout carried, kept or not. */
  readonly stdoutBytes: number;
  /**
   * At most MAX_REPLY_BYTES of what stderr carried until the run was judged (Cursor only logs
   * it; it is kept to show why an entry failed).
   */
  readonly stderr: Uint8Array;
  readonly stderrBytes: number;
  /**
   * Every payload byte was taken from the pipe before the entry exited. An entry that never
   * reads stdin leaves a payload larger than the pipe's buffer unwritten.
   */
  readonly stdinConsumed: boolean;
}

/** How long after the exit the payload's write may still report that it completed. */
const STDIN_GRACE_MS = 200;

/** The shell failed to start at all (ENOENT for a missing pwsh). */
export class LaunchError extends Error {
  constructor(readonly code: string | undefined) {
    super('the shell did not start');
  }
}

export function runEntry(launch: EntryLaunch, options: EntryRunOptions): Promise<EntryRun> {
  const started = performance.now();
  let child: ChildProcess;
  try {
    child = spawn(launch.file, [...launch.args], {
      cwd: launch.cwd,
      env: { ...launch.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // A process group of its own: the timeout kills it whole.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
  } catch (err) {
    return Promise.reject(new LaunchError((err as NodeJS.ErrnoException).code));
  }
  return new Promise<EntryRun>((resolve, reject) => {
    const stdoutSeen = new Capture();
    const stderrSeen = new Capture();
    let exited: { code: number | null; signal: string | null } | undefined;
    let stdoutEnded = options.closeStdout === true;
    let stdinConsumed = false;
    let stdinSettled = false;
    let stdinGrace: NodeJS.Timeout | undefined;
    let timedOut = false;
    let settled = false;
    let endedAt: number | undefined;

    const finish = () => {
      if (settled || exited === undefined || !stdoutEnded) return;
      endedAt ??= performance.now();
      // The write's completion and the exit arrive in either order: give the write a moment.
      if (!stdinSettled && !timedOut) {
        stdinGrace ??= setTimeout(() => {
          stdinSettled = true;
          finish();
        }, STDIN_GRACE_MS);
        return;
      }
      settled = true;
      clearTimeout(stdinGrace);
      clearTimeout(timer);
      child.stdin?.destroy();
      // Only stdout counts for Cursor: a child left holding stderr must not keep this process.
      child.stderr?.destroy();
      resolve({
        exitCode: exited.code,
        signal: exited.signal,
        timedOut,
        durationMs: Math.round(endedAt - started),
        stdout: stdoutSeen.kept(),
        stdoutBytes: stdoutSeen.bytes,
        stderr: stderrSeen.kept(),
        stderrBytes: stderrSeen.bytes,
        stdinConsumed,
      });
    };

    const timer = setTimeout(() => {
      timedOut = true;
      kill(child);
      // The kill ends the group; stdout may stay open in a grandchild that escaped it.
      stdoutEnded = true;
      child.stdout?.destroy();
      finish();
    }, options.timeoutMs);

    child.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new LaunchError(err.code));
    });
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      finish();
    });

    const { stdin, stdout, stderr } = child;
    stderr?.on('data', (chunk: Buffer) => stderrSeen.add(chunk));
    stderr?.on('error', () => undefined);
    if (stdout !== null) {
      if (options.closeStdout === true) stdout.destroy();
      stdout.on('data', (chunk: Buffer) => stdoutSeen.add(chunk));
      stdout.on('error', () => undefined);
      stdout.on('close', () => {
        stdoutEnded = true;
        finish();
      });
    }
    if (stdin !== null) {
      // EPIPE: the entry exited, or closed stdin, before taking the whole payload.
      stdin.on('error', () => undefined);
      stdin.write(options.payload, (err) => {
        stdinConsumed = err == null;
        stdinSettled = true;
        finish();
      });
      if (options.holdStdinOpen !== true) stdin.end();
    }
  });
}

/** SIGKILL to the whole group (POSIX), or the process itself (Windows). */
function kill(child: ChildProcess): void {
  try {
    if (process.platform !== 'win32' && child.pid !== undefined)
      process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // Already gone.
  }
}

/** A stream's first MAX_REPLY_BYTES, and the count of all it carried. */
class Capture {
  private readonly parts: Uint8Array[] = [];
  private keptBytes = 0;
  bytes = 0;

  add(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    const room = MAX_REPLY_BYTES - this.keptBytes;
    if (room <= 0) return;
    const part = chunk.subarray(0, room);
    this.parts.push(part);
    this.keptBytes += part.length;
  }

  kept(): Uint8Array {
    const all = new Uint8Array(this.keptBytes);
    let at = 0;
    for (const part of this.parts) {
      all.set(part, at);
      at += part.length;
    }
    return all;
  }
}
