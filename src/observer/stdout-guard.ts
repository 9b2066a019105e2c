// While the observer runs, stdout belongs to the reply alone: whatever the handler writes there
// (console.log, console.info, process.stdout.write) goes to stderr instead, so Cursor never
// reads it as the hook's answer. A write straight to file descriptor 1 is beyond reach.

/** Writes `text` to the real stdout; `done` runs once, when it is written or has failed. */
export type Reply = (text: string, done: () => void) => void;

export function guardStdout(): Reply {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as (text: string, done: () => void) => boolean;
  const toStderr = (...args: Parameters<typeof process.stderr.write>) =>
    process.stderr.write(...args);
  stdout.write = toStderr as typeof stdout.write;
  // A closed stdout or stderr (EPIPE) must not crash the observer: the error is the answer's end.
  process.stderr.on('error', () => undefined);
  return (text, done) => {
    let called = false;
    const once = () => {
      if (called) return;
      called = true;
      done();
    };
    stdout.on('error', once);
    try {
      write(text, once);
    } catch {
      once();
    }
  };
}
