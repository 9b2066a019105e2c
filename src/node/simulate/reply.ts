// What Cursor makes of a stop hook's run: only an exit 0 in time whose stdout is one JSON object
// is a reply at all, and any `followup_message` in it sends the agent a new message.
import type { EntryRun } from './run-entry.js';

/**
 * neutral: exit 0 in time, stdout one JSON object (after whitespace) without `followup_message`;
 * followup: the same with `followup_message` (it would continue the agent); not-json: exit 0
 * with anything else on stdout, empty included; nonzero-exit: exited otherwise (a signal too);
 * timed-out: killed at the entry's timeout.
 */
export type ReplyVerdict = 'neutral' | 'followup' | 'not-json' | 'nonzero-exit' | 'timed-out';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function replyVerdict(run: EntryRun): ReplyVerdict {
  if (run.timedOut) return 'timed-out';
  if (run.exitCode !== 0) return 'nonzero-exit';
  if (run.stdoutBytes > run.stdout.length) return 'not-json';
  let value: unknown;
  try {
    value = JSON.parse(UTF8.decode(run.stdout));
  } catch {
    return 'not-json';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not-json';
  return Object.hasOwn(value, 'followup_message') ? 'followup' : 'neutral';
}
