// The POSIX recorder: a /bin/sh script, so qualifying needs no Node on the path Cursor runs.
// It writes the layout `recording.ts` reads, answers `{}` and always exits 0: a probe that
// fails to record must not break the user's agent turn (finish then says nothing fired).
import { grammarFamily } from '../../shell/families.js';
import { MAX_STDIN_BYTES } from './recording.js';

const POSIX = grammarFamily('posix-single-quote');

/** The script's text; `recordings` is embedded, so a mangled argv cannot misdirect it. */
export function recorderScript(recordings: string): string {
  // The same single quoting the family renders tokens with; the path passed its checks.
  const quoted = POSIX?.render([recordings]);
  if (quoted === undefined) throw new Error('the posix-single-quote family is not registered');
  return [
    '#!/bin/sh',
    '# cursorhooks qualification recorder: writes down how Cursor ran it, answers {}, exits 0.',
    `recordings=${quoted}`,
    'tmp="$recordings/.tmp-$$"',
    `mkdir "$tmp" 2>/dev/null || { printf '{}\\n'; exit 0; }`,
    `printf '%s\\0' "$0" "$@" > "$tmp/argv"`,
    'pwd -P > "$tmp/cwd"',
    `head -c ${MAX_STDIN_BYTES} > "$tmp/stdin"`,
    `if [ "\${CURSOR_VERSION+set}" = set ]; then printf '%s' "$CURSOR_VERSION" > "$tmp/cursor-version"; fi`,
    'mv "$tmp" "$recordings/rec-$$-$(date +%s)" 2>/dev/null || rm -rf "$tmp"',
    `printf '{}\\n'`,
    'exit 0',
    '',
  ].join('\n');
}
