// The stop payloads simulate-stop sends: a plain one shaped like Cursor's, and the variants of
// the conformance matrix that real builds and platforms produce (byte-order marks, missing
// fields, fields from newer builds, bytes that are not UTF-8, oversize).
import { MAX_STOP_PAYLOAD_BYTES } from '../../shell/stop-event.js';

const BOM = [0xef, 0xbb, 0xbf];

/** Cursor's stop payload, with fixed ids that name the simulation (never a real conversation). */
export function stopPayloadFields(cursorVersion: string): Record<string, unknown> {
  return {
    conversation_id: 'cursorhooks-simulate-stop',
    generation_id: 'cursorhooks-simulate-stop',
    hook_event_name: 'stop',
    workspace_roots: [],
    cursor_version: cursorVersion,
    status: 'completed',
    loop_count: 0,
  };
}

export function stopPayload(cursorVersion: string): Uint8Array {
  return json(stopPayloadFields(cursorVersion));
}

/** One conformance case: what is sent, and how the entry's stdin and stdout are treated. */
export interface ConformanceCase {
  readonly name: string;
  readonly payload: Uint8Array;
  readonly holdStdinOpen?: boolean;
  readonly closeStdout?: boolean;
}

export function conformanceCases(cursorVersion: string): readonly ConformanceCase[] {
  const fields = stopPayloadFields(cursorVersion);
  const plain = json(fields);
  const { cursor_version: _version, ...noVersion } = fields;
  const { status: _status, ...noStatus } = fields;
  return [
    { name: 'plain', payload: plain },
    { name: 'one-bom', payload: Uint8Array.from([...BOM, ...plain]) },
    { name: 'two-boms', payload: Uint8Array.from([...BOM, ...BOM, ...plain]) },
    { name: 'empty-stdin', payload: new Uint8Array(0) },
    { name: 'oversized', payload: oversized(fields) },
    { name: 'stdin-held-open', payload: plain, holdStdinOpen: true },
    { name: 'stdout-closed', payload: plain, closeStdout: true },
    { name: 'no-cursor-version', payload: json(noVersion) },
    { name: 'no-status', payload: json(noStatus) },
    {
      name: 'unknown-fields',
      payload: json({
        ...fields,
        model: 'simulated',
        input_tokens: 1,
        x_future_field: { nested: [1, 'two', null] },
      }),
    },
    { name: 'not-utf8', payload: notUtf8(cursorVersion) },
  ];
}

/** A stop payload padded with spaces to MAX_STOP_PAYLOAD_BYTES + 1 bytes: one byte too many. */
function oversized(fields: Record<string, unknown>): Uint8Array {
  const payload = new Uint8Array(MAX_STOP_PAYLOAD_BYTES + 1).fill(0x20);
  payload.set(json(fields));
  return payload;
}

/** The plain payload with a byte that starts no UTF-8 sequence inside a string. */
function notUtf8(cursorVersion: string): Uint8Array {
  const text = JSON.stringify({ ...stopPayloadFields(cursorVersion), model: '#' });
  const bytes = new TextEncoder().encode(text);
  bytes[text.indexOf('"#"') + 1] = 0xff;
  return bytes;
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}
