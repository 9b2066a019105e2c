#!/usr/bin/env node
// A stop observer on cursorhooks/observer. Cursor runs it as
//   stop-observer.mjs cursor-event stop --binding <selector>
// with the stop payload on stdin. runStopObserver answers {} and exits 0 whatever happens here.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runStopObserver } from 'cursorhooks/observer';

const STATUSES = ['completed', 'aborted', 'error'];
const args = process.argv.slice(2);

if (args[0] === 'detached-work') {
  // The long work, in a process of its own: the stop was answered long before it ends.
  const [, log, status] = args;
  appendFileSync(log, `${status}\n`);
} else {
  runStopObserver({
    onStop: ({ payload }) => {
      const [event, name, flag, binding] = args;
      if (event !== 'cursor-event' || name !== 'stop' || flag !== '--binding' || !binding) {
        console.error('stop-observer: not run as cursor-event stop --binding <selector>');
        return;
      }
      // payload is null when stdin was not one JSON object; only known values are passed on.
      const status = STATUSES.includes(payload?.status) ? payload.status : 'unknown';
      const log = `${binding}.stops.log`;
      const work = [fileURLToPath(import.meta.url), 'detached-work', log, status];
      // Detached and with none of Cursor's pipes, so Cursor gets its answer now.
      spawn(process.execPath, work, { detached: true, stdio: 'ignore' }).unref();
    },
  });
}
