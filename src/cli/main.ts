#!/usr/bin/env node
// The executable: it only wires the process streams to `run`, which holds all behaviour.
import { run } from './run.js';

process.exitCode = await run(process.argv.slice(2), process.stdin, {
  stdout: (text) => {
    process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
});
