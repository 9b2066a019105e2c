import { CursorHooksError, type HookPlanner, type ReceiptJSON } from '../index.js';
import { readDocumentField } from './document-field.js';
import { errorJSON } from './error-json.js';
import { ExitCode } from './exit-codes.js';
import { type CliInput, type CliIO, writeJSON } from './io.js';
import { decodeJsonRequest } from './json-request.js';
import { readRequestBytes } from './stdin.js';

const FIELDS: readonly string[] = ['document', 'documentBase64', 'receipt'];

/** `verify`: exit 0 when the document holds the receipt's intact owned entry, else 1. */
export async function verifyCommand(
  stdin: CliInput,
  io: CliIO,
  planner: HookPlanner,
): Promise<ExitCode> {
  const request = decodeJsonRequest(await readRequestBytes(stdin), FIELDS);
  const document = readDocumentField(request) ?? new Uint8Array(0);
  try {
    // Unchecked on purpose: verifyOwned validates the receipt as strictly as Receipt.fromJSON.
    planner.verifyOwned(document, request.receipt as ReceiptJSON);
  } catch (err) {
    if (!(err instanceof CursorHooksError)) throw err;
    writeJSON(io, { owned: false, error: errorJSON(err) });
    return ExitCode.Refused;
  }
  writeJSON(io, { owned: true });
  return ExitCode.Ok;
}
