import assert from 'node:assert/strict';
import { adviseHooks } from 'cursorhooks';

// A user file two other tools left behind: an event name Cursor does not know, and a stop hook
// pasted in Claude Code's nested shape. The host reads the bytes; adviseHooks only looks.
const document = JSON.stringify({
  version: 1,
  hooks: {
    notification: [{ command: 'notify-send "agent done"' }],
    stop: [{ matcher: '*', hooks: [{ type: 'command', command: 'say done' }] }],
  },
});

const findings = adviseHooks(document); // the user file unless `source` says otherwise
assert.deepEqual(
  findings.map((found) => [found.code, found.severity, found.event, found.eventIndex, found.index]),
  [
    // An unknown event is named by its position among the hooks members, never by its name.
    ['event-unknown', 'voids-file', undefined, undefined, 0],
    // An entry: its event (a known name), the event's position, the entry's position in it.
    ['claude-style-entry', 'voids-entry', 'stop', 1, 0],
  ],
);
// Positions and fixed sentences only: nothing of the file's text comes back.
assert.equal(JSON.stringify(findings).includes('notify-send'), false);
assert.equal(JSON.stringify(findings).includes('notification'), false);
