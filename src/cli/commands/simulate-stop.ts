import { ConflictError, CursorHooksError, UnsupportedError } from '../../errors/errors.js';
import { MAX_DOCUMENT_BYTES } from '../../limits.js';
import { HostIOError } from '../../node/errors.js';
import { runConformance, simulateStop } from '../../node/simulate/simulate-stop.js';
import { blockingFs } from '../../node/write/fs-seam.js';
import { readFileSnapshot } from '../../node/write/read.js';
import { usageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { CONTRACT_FILE_OPTION, contractsOf } from '../contract-files.js';
import { ExitCode } from '../exit-codes.js';
import { failureOf } from '../file/failure.js';
import { absolute, FILE_OPTIONS, filesOf } from '../file/options.js';
import { writeJSON } from '../io.js';
import {
  conformanceResult,
  type SimulateResultJSON,
  simulateText,
  singleResult,
} from '../simulate/simulate-result.js';

/** `simulate-stop`: fire the installed entry as Cursor would, and judge its reply. */
export const simulateStopCommand: Command = {
  name: 'simulate-stop',
  summary: 'fire the installed stop entry as Cursor does, and judge its reply (or --conformance)',
  description: `Runs the command of the entry the ledger receipts (found intact in the hook file, or refused
simulate-not-owned) as Cursor runs a stop hook on this platform: POSIX /bin/sh -c, in the hook
file's directory, with only PATH, HOME, CURSOR_VERSION and CURSORHOOKS_SIMULATED set (stop, or
conformance for the matrix: cursorhooks/observer records a simulated stop as simulated in its
heartbeat, and a matrix case nowhere), the payload on stdin (Windows
family: pwsh in Cursor's wrapper, the payload read from a file), killed with everything it
started at the entry's 5 s timeout. The verdict: neutral (exit 0, stdout one JSON object without
followup_message), followup (it would send the agent a new message), not-json, nonzero-exit,
timed-out. --payload sends a file's bytes instead of a plain stop payload; --cursor-version sets
CURSOR_VERSION and the payload's cursor_version (default: the contract's version).
--conformance runs the matrix every stop observer must pass, whatever its language: a plain
payload, one and two byte-order marks, empty stdin, 1 MiB + 1 bytes, stdin held open past the
timeout, stdout closed at once, no cursor_version, no status, unknown fields, bytes that are not
UTF-8. A case passes when the entry exits 0 in time, takes the whole payload from stdin (an
entry that never reads it fails the 1 MiB + 1 case: stdin-unread), and answers neutral (the
stdout-closed case: exit 0 is enough). The entry really runs: whatever it does on a stop, it does.
Exit 0 when neutral (every case passed), 1 otherwise.`,
  options: {
    ...FILE_OPTIONS,
    payload: {
      type: 'string',
      value: 'FILE',
      help: 'send these bytes on stdin, an absolute path (default: a plain stop payload)',
    },
    'cursor-version': {
      type: 'string',
      value: 'V',
      help: "CURSOR_VERSION and the payload's cursor_version (default: the contract's version)",
    },
    conformance: {
      type: 'boolean',
      help: 'run the conformance matrix instead of one stop',
    },
    ...CONTRACT_FILE_OPTION,
  },
  output: `a summary; with --json one object {"mode", "hooksFile", "realPath", "command", "shell",
  "family", "platform", "cwd", "cursorVersion", "timeoutMs", "run" (single) or "cases"
  (conformance), "failing", "passed"}; when not neutral it is printed too, then the error on
  stderr (simulate-reply-not-neutral, conformance-failed)`,
  async run({ options, json, io }) {
    const { hooksFile, ledger } = filesOf(options);
    const payloadPath = absolute(options, 'payload');
    const conformance = options.conformance === true;
    if (conformance && payloadPath !== undefined) {
      throw usageError(
        'option-conflict',
        'option --payload is not taken with --conformance, which sends its own payloads',
        { option: '--payload' },
      );
    }
    const cursorVersion = options['cursor-version'] as string | undefined;
    const common = {
      hooksFile,
      ledger,
      // Given no --contract-file, the one the ledger keeps for the receipt, if unchanged.
      planner: (await contractsOf(options, { hooksFile, ledger })).planner,
      fs: blockingFs,
      ...(cursorVersion === undefined ? {} : { cursorVersion }),
    };
    let result: SimulateResultJSON;
    try {
      if (conformance) {
        result = conformanceResult(await runConformance(common));
      } else {
        const payload = payloadPath === undefined ? undefined : await readPayload(payloadPath);
        result = singleResult(
          await simulateStop({ ...common, ...(payload === undefined ? {} : { payload }) }),
        );
      }
    } catch (err) {
      // A file the kit cannot read is an I/O failure (74), as for the file-level commands.
      throw err instanceof CursorHooksError ? failureOf(err) : err;
    }
    if (json) writeJSON(io, result);
    else io.stdout(simulateText(result));
    if (!result.passed) {
      throw new ConflictError(conformance ? 'conformance-failed' : 'simulate-reply-not-neutral');
    }
    return ExitCode.Ok;
  },
};

async function readPayload(path: string): Promise<Uint8Array> {
  const snapshot = await readFileSnapshot(path, blockingFs, { role: 'payload', emptySettleMs: 0 });
  if (!snapshot.exists) throw new HostIOError('io-failure', 'ENOENT', { role: 'payload', path });
  if (snapshot.bytes.length > MAX_DOCUMENT_BYTES) {
    throw new UnsupportedError('simulate-payload-too-large');
  }
  return snapshot.bytes;
}
