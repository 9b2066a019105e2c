#!/usr/bin/env node
// The executable: it only wires the process streams to `run`, which holds all behaviour.
import { removeSideFilesOnInterrupt } from '../node/interrupt.js';
import { ExitCode } from './exit-codes.js';
import { run } from './run.js';

// A reader that stops early (`cursorhooks contracts | head -1`) closes the pipe: end quietly
// with the documented code instead of a stack trace, and print nothing more.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  process.exit(err.code === 'EPIPE' ? ExitCode.StdoutClosed : ExitCode.IO);
});

// Ctrl-C or a kill while a file command waits for a lock or writes: the lock, staging and temp
// files this process made go with it, and the process still ends by the signal.
removeSideFilesOnInterrupt();

// No top-level await: the bundle is CommonJS (scripts/build-cli.mjs says why).
void run(process.argv.slice(2), process.stdin, {
  stdout: (text) => {
    process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
}).then((code) => {
  process.exitCode = code;
});
