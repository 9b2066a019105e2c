import type { HookPlanner, PlanRequest } from '../index.js';
import { toBase64, utf8OrNull } from './bytes.js';
import { readDocumentField } from './document-field.js';
import { errorJSON } from './error-json.js';
import { ExitCode } from './exit-codes.js';
import { type CliInput, type CliIO, writeJSON } from './io.js';
import { decodeJsonRequest, type JsonRequest } from './json-request.js';
import { readRequestBytes } from './stdin.js';

// Handed to the planner exactly as given: it checks every one and refuses with a reason.
const PLANNER_FIELDS = ['operation', 'specs', 'previous', 'shell', 'executableVerified'] as const;
const FIELDS: readonly string[] = ['document', 'documentBase64', ...PLANNER_FIELDS];

/** `plan`: one JSON request on stdin, one JSON result on stdout; exit 0 planned, 1 refused. */
export async function planCommand(
  stdin: CliInput,
  io: CliIO,
  planner: HookPlanner,
): Promise<ExitCode> {
  const request = decodeJsonRequest(await readRequestBytes(stdin), FIELDS);
  const result = planner.plan(toPlanRequest(readDocumentField(request), request));
  writeJSON(io, {
    desired: utf8OrNull(result.desired),
    desiredBase64: toBase64(result.desired),
    receipt: result.receipt?.toJSON() ?? null,
    noOp: result.noOp,
    conflict: result.conflict,
    error: result.error === undefined ? null : errorJSON(result.error),
  });
  return result.error === undefined ? ExitCode.Ok : ExitCode.Refused;
}

function toPlanRequest(document: Uint8Array | null, request: JsonRequest): PlanRequest {
  const fields: Record<string, unknown> = { document };
  for (const key of PLANNER_FIELDS) {
    if (Object.hasOwn(request, key)) fields[key] = request[key];
  }
  // Unchecked values on purpose: `plan` never throws, whatever it is given, and its refusal
  // reason (e.g. `executable-unverified` for `"yes"`) is more useful than a usage error.
  return fields as unknown as PlanRequest;
}
