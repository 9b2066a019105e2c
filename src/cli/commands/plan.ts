import { Operation } from '../../planner/operation.js';
import type { PlanRequest } from '../../planner/request.js';
import { exactText } from '../bytes.js';
import type { Command } from '../command.js';
import { CONTRACT_FILE_OPTION, plannerOf } from '../contract-files.js';
import { DOCUMENT_FIELDS, readDocumentField } from '../document-field.js';
import { ExitCode } from '../exit-codes.js';
import { writeJSON } from '../io.js';
import { accepts, decodeRequest, type JsonRequest, type RequestFields } from '../request-fields.js';
import { MAX_REQUEST_BYTES, readRequestBytes } from '../stdin.js';

const OPERATIONS: readonly unknown[] = Object.values(Operation);

function isSpec(value: unknown): boolean {
  if (!accepts.object(value)) return false;
  const keys = Object.keys(value as object);
  const { executable, selector } = value as Record<string, unknown>;
  return keys.length === 2 && typeof executable === 'string' && typeof selector === 'string';
}

const REQUEST: RequestFields = {
  ...DOCUMENT_FIELDS,
  operation: {
    help: '"install", "update", "remove" or "repair"',
    required: true,
    expected: 'one of "install", "update", "remove", "repair"',
    accepts: (value) => OPERATIONS.includes(value),
  },
  specs: {
    help: '[{"executable": PATH, "selector": PATH}]',
    expected: 'an array of {"executable": string, "selector": string} objects',
    accepts: (value) => Array.isArray(value) && value.every(isSpec),
  },
  previous: {
    help: 'the receipt from the last plan, or null',
    expected: 'a receipt object or null',
    accepts: accepts.objectOrNull,
  },
  shell: {
    help: 'a contract id (see: cursorhooks contracts)',
    expected: 'a string',
    accepts: accepts.string,
  },
  executableVerified: {
    help: "true once the host's executable and selector checks passed",
    expected: 'true or false',
    accepts: accepts.boolean,
  },
};

/** `plan`: one JSON request on stdin, the planned document and receipt on stdout. */
export const planCommand: Command = {
  name: 'plan',
  summary: 'plan install, update, remove or repair of the owned entry',
  description: `Reads one JSON request on stdin and writes one JSON result on stdout.
A refusal writes nothing on stdout: the error goes to stderr and the exit code is 1.
The request may hold at most ${MAX_REQUEST_BYTES / 1024 / 1024} MiB; send large documents as documentBase64 if
your JSON encoder escapes non-ASCII characters.`,
  options: { ...CONTRACT_FILE_OPTION },
  request: REQUEST,
  output: `{"desired": TEXT, "receipt": RECEIPT | null, "noOp": BOOLEAN}: the document to write
  (the input on a no-op) and the receipt to store (null after remove).`,
  jsonOnly: true,
  async run({ options, stdin, io }) {
    const request = decodeRequest(await readRequestBytes(stdin), REQUEST);
    const result = (await plannerOf(options)).plan(
      toPlanRequest(readDocumentField(request), request),
    );
    // A refusal is thrown so it prints in the one error shape; its bytes are never echoed.
    if (result.error !== undefined) throw result.error;
    writeJSON(io, {
      desired: exactText(result.desired),
      receipt: result.receipt?.toJSON() ?? null,
      noOp: result.noOp,
    });
    return ExitCode.Ok;
  },
};

function toPlanRequest(document: Uint8Array | null, request: JsonRequest): PlanRequest {
  const fields: Record<string, unknown> = { document };
  for (const key of ['operation', 'specs', 'previous', 'shell', 'executableVerified']) {
    if (Object.hasOwn(request, key)) fields[key] = request[key];
  }
  // The field types were checked when the request was decoded; the planner judges the values.
  return fields as unknown as PlanRequest;
}
