// Text read from the kit's files (a lock's host name and date, a path, a record's fields) can
// hold control characters that retitle, clear or rewrite a terminal, or bidi overrides that
// reorder what it shows. `run` sends everything the CLI writes through here.
import type { CliIO } from './io.js';

// C0 but tab and line feed, DEL and C1 (together \p{Cc}), and the bidi embeddings, overrides and
// isolates.
const CONTROLS = /(?![\t\n])[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Each control character as a `\uHHHH` escape, never sent. One form serves text and JSON: the
 * CLI's JSON holds these characters only inside strings (JSON.stringify escapes C0 itself), where
 * the escape reads back as the same string.
 */
export function terminalText(text: string): string {
  return text.replace(
    CONTROLS,
    (char) => `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, '0')}`,
  );
}

/** `io` with every write to stdout and stderr escaped by terminalText. */
export function terminalIO(io: CliIO): CliIO {
  return {
    stdout: (text) => io.stdout(terminalText(text)),
    stderr: (text) => io.stderr(terminalText(text)),
  };
}
