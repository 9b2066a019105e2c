// A qualification record exactly as a probe writes it, for the tests of qualifiedContract and
// of --contract-file; each test applies its own hand edit.
import { grammarFamily } from '../../src/shell/families.js';
import { stopArgv } from '../../src/shell/stop-invocation.js';

export const VERSION = '3.40.1';
export const POSIX_ARGV = stopArgv("/opt/agent bin/it's", '/home/ada/é.json');

// biome-ignore lint/suspicious/noExplicitAny: a hand edit may reach any field of the record.
export type Draft = Record<string, any>;

/** A record exactly as a probe of the posix family writes it, with `edit` applied. */
export function record(edit: (r: Draft) => void = () => {}): unknown {
  const family = grammarFamily('posix-single-quote');
  const r: Draft = {
    version: 1,
    id: 'cursor-ide-3.40.1-linux-x64-posix-single-quote',
    family: 'posix-single-quote',
    evidence: {
      client: 'Cursor IDE',
      version: VERSION,
      platform: 'linux',
      arch: 'x64',
      date: '2026-12-03',
      run: null,
      observed: ['a stop hook fired and its argv arrived byte for byte'],
      notObserved: ['any other build or platform'],
      artifacts: [],
    },
    probe: {
      argv: [...POSIX_ARGV],
      command: family?.render(POSIX_ARGV),
      recorded: {
        argv: [...POSIX_ARGV],
        cwd: '/home/ada/.cursor',
        hookEventName: 'stop',
        cursorVersion: VERSION,
        status: 'completed',
        payloadFields: ['cursor_version', 'hook_event_name', 'status'],
        cursorVersionEnv: VERSION,
      },
    },
  };
  edit(r);
  return JSON.parse(JSON.stringify(r));
}
