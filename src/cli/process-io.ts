// The process's stdin and stdout as the executable hands them to `run`. Where a descriptor is a
// pipe, a socket or a file, plain reads and writes on it serve, as blocking as Node's own writes
// there: the stream objects Node makes for it (a socket, the stream machinery) cost every call
// about 0.07x a bare node. A terminal, Windows, or a descriptor that turns out non-blocking
// (EAGAIN) goes through process.stdin and process.stdout, from that point on.
import { fstatSync, readSync, writeSync } from 'node:fs';
import { ExitCode } from './exit-codes.js';

const STDIN = 0;
const STDOUT = 1;
const CHUNK = 64 * 1024;

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException).code;

function plainDescriptor(fd: number): boolean {
  if (process.platform === 'win32') return false;
  try {
    const stats = fstatSync(fd);
    return stats.isFIFO() || stats.isSocket() || stats.isFile();
  } catch {
    return false;
  }
}

/** All of stdin, chunk by chunk; leaving the loop early stops reading (and destroys a stream). */
export async function* standardInput(): AsyncGenerator<Uint8Array> {
  if (plainDescriptor(STDIN)) {
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      let read: number;
      try {
        read = readSync(STDIN, chunk, 0, CHUNK, null);
      } catch (err) {
        if (errorCode(err) === 'EAGAIN') break;
        throw err;
      }
      if (read === 0) return;
      yield chunk.subarray(0, read);
    }
  }
  yield* process.stdin;
}

/**
 * A reader that stops early (`cursorhooks contracts | head -1`) closes the pipe: the process
 * ends quietly with the documented code instead of a stack trace, and prints nothing more.
 * Deferred like a stream's error event, so what the current step writes to stderr still goes.
 */
function stdoutFailed(err: unknown): void {
  process.nextTick(() => {
    process.exit(errorCode(err) === 'EPIPE' ? ExitCode.StdoutClosed : ExitCode.IO);
  });
}

let mode: 'plain' | 'stream' | 'failed' | undefined;

function toStream(): void {
  mode = 'stream';
  process.stdout.on('error', stdoutFailed);
}

/** Writes `text` to stdout, in order with every earlier write. */
export function writeStandardOutput(text: string): void {
  if (mode === undefined) {
    if (plainDescriptor(STDOUT)) mode = 'plain';
    else toStream();
  }
  if (mode === 'failed') return;
  if (mode === 'stream') {
    process.stdout.write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(STDOUT, bytes, written);
  } catch (err) {
    if (errorCode(err) !== 'EAGAIN') {
      mode = 'failed';
      stdoutFailed(err);
      return;
    }
    toStream();
    process.stdout.write(bytes.subarray(written));
  }
}
