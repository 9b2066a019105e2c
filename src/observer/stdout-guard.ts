// While the observer runs, stdout belongs to the reply alone: whatever the handler writes there
// (console.log, console.info, process.stdout.write) goes to stderr instead, so Cursor never
// reads it as the hook's answer. Nothing here creates a stream: Node builds process.stdout and
// process.stderr on first use, and a stop that prints nothing should not pay for them. Beyond
// reach: a write straight to file descriptor 1, or through a process.stdout taken beforehand.
import { fs } from './node-fs.js';

/** Writes `text` to the real stdout (file descriptor 1); a closed stdout (EPIPE) is ignored. */
export type Reply = (text: string) => void;

export function guardStdout(): Reply {
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: true,
    get: () => process.stderr,
  });
  // The global console binds its stream on first use, or already did: either way, stderr. A
  // proxy, so that stderr too is built only when something is printed.
  const stderr = new Proxy({} as NodeJS.WriteStream, {
    get: (_, key) => {
      const value: unknown = Reflect.get(process.stderr, key);
      return typeof value === 'function' ? value.bind(process.stderr) : value;
    },
  });
  (console as unknown as { _stdout: NodeJS.WriteStream })._stdout = stderr;
  return (text) => {
    try {
      fs.writeSync(1, text);
    } catch {
      // Cursor closed the pipe (EPIPE) or there is no stdout: nobody is left to read the reply.
    }
  };
}

/** A line on stderr for the host's log; a closed stderr is ignored. */
export function warnLine(text: string): void {
  try {
    fs.writeSync(2, `${text}\n`);
  } catch {
    // Nowhere to report to.
  }
}
