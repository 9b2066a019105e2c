// Usage texts, printed to stdout for --help. Each names exactly what its command accepts.
import { MAX_REQUEST_BYTES } from './stdin.js';

const EXIT_CODES = `Exit codes:
  0   planned / owned / rendered / listed
  1   refused by the library: stdout holds JSON with error.kinds, error.reason, error.message
  2   bad usage or an unreadable request: one line on stderr, nothing on stdout
  70  internal failure (a bug): one line on stderr`;

export const TOOL_HELP = `Usage: cursorhooks <command> [options]

Plans edits to Cursor's user hooks.json for exactly one owned stop hook entry.
Pure: it reads a JSON request on stdin and writes JSON on stdout. It never reads
or writes files, environment variables or the network; the host does the I/O.

Commands:
  plan          plan install, update, remove or repair of the owned entry
  verify        check that a document holds a receipt's intact owned entry
  render-argv   render an argv through a registered shell contract
  contracts     list the registered shell contracts and their evidence

Options:
  -h, --help    show this help; "cursorhooks <command> --help" for one command

${EXIT_CODES}
`;

const DOCUMENT_FIELDS = `  document            the file's text; null or absent when the file does not exist
  documentBase64      the file's bytes as padded base64 instead (one of the two)`;

const REQUEST_LIMIT = `The request may hold at most ${MAX_REQUEST_BYTES / 1024 / 1024} MiB; send large documents as documentBase64.`;

export const PLAN_HELP = `Usage: cursorhooks plan < request.json

Reads one JSON request on stdin and writes one JSON result on stdout.
${REQUEST_LIMIT}

Request fields:
${DOCUMENT_FIELDS}
  operation           "install", "update", "remove" or "repair"
  specs               [{"executable": PATH, "selector": PATH}]
  previous            the receipt from the last plan, or null
  shell               a contract id (see: cursorhooks contracts)
  executableVerified  true once the host's executable and selector checks passed

Result fields:
  desired             the planned document as text; null if its bytes are not UTF-8
  desiredBase64       the planned document's bytes (the input bytes when refused)
  receipt             the receipt to store, or null after remove and on refusal
  noOp                true when the document bytes are unchanged
  conflict            true exactly when error is set
  error               null, or {kinds, reason, message}

${EXIT_CODES}
`;

export const VERIFY_HELP = `Usage: cursorhooks verify < request.json

Checks that the document holds the receipt's owned entry, intact and unique.
${REQUEST_LIMIT}

Request fields:
${DOCUMENT_FIELDS}
  receipt             the receipt to check against

Prints {"owned": true}, or {"owned": false, "error": {kinds, reason, message}}.

${EXIT_CODES}
`;

export const RENDER_ARGV_HELP = `Usage: cursorhooks render-argv --shell ID -- TOKEN...

Prints the command line that contract ID renders for the tokens after --,
or the refusal JSON when the tokens are outside its grammar.

Options:
  --shell ID          a registered contract id (see: cursorhooks contracts)

${EXIT_CODES}
`;

export const CONTRACTS_HELP = `Usage: cursorhooks contracts

Prints the registered shell contracts as a JSON array of {id, evidence}.

${EXIT_CODES}
`;
