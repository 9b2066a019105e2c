// Runs an observer as Cursor would: a child process with the payload on stdin, its reply read
// from stdout. Options hold stdin open, close stdout at once, or act when stderr says something.
import { type ChildProcess, spawn } from 'node:child_process';

export interface ObserverRun {
  /** null when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** From spawn to exit, in milliseconds. */
  readonly elapsed: number;
}

export interface RunOptions {
  /** Written to stdin, which is then closed unless `holdStdin`. */
  readonly stdin?: string | Uint8Array;
  readonly holdStdin?: boolean;
  /** The reading end of stdout is closed before the observer can answer. */
  readonly closeStdout?: boolean;
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Called once when stderr first contains `text`. */
  readonly when?: { readonly text: string; readonly act: (child: ChildProcess) => void };
}

/** A run that has not ended by then is killed and reported, so a hang fails, never stalls. */
const KILL_AFTER_MS = 20_000;

export function runObserver(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<ObserverRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      stdio: 'pipe',
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    let acted = false;
    const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    if (options.closeStdout === true) child.stdout.destroy();
    else child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (!acted && options.when !== undefined && stderr.includes(options.when.text)) {
        acted = true;
        options.when.act(child);
      }
    });
    // The observer may exit before it reads stdin: that is not this runner's failure.
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr,
        elapsed: performance.now() - started,
      });
    });
    if (options.stdin !== undefined) child.stdin.write(options.stdin);
    if (options.holdStdin !== true) child.stdin.end();
  });
}
