// The CLI's process: it only wires the process streams to `run`, which holds all behaviour.
// bin.cts compiles and runs it.
import { removeSideFilesOnInterrupt } from '../node/side-files/interrupt.js';
import { standardInput, writeStandardOutput } from './process-io.js';
import { run } from './run.js';

// Ctrl-C or a kill while a file command waits for a lock or writes: the lock, staging and temp
// files this process made go with it, and the process still ends by the signal.
removeSideFilesOnInterrupt();

// stdin is opened on first use: only the commands that read a request pay for it.
const stdin: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: standardInput };

// No top-level await: the bundle is CommonJS (scripts/build-cli.mjs says why).
void run(process.argv.slice(2), stdin, {
  stdout: writeStandardOutput,
  stderr: (text) => {
    process.stderr.write(text);
  },
}).then((code) => {
  process.exitCode = code;
});
