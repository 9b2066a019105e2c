// Stop payloads as Cursor sends them, and the ways they arrive broken: the cases every observer
// must answer `{}` to, whatever language it is written in.
import { MAX_STOP_PAYLOAD_BYTES } from '../../src/observer/index.js';

export const VERSION = '3.40.1';
export const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

export const stopPayload = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  conversation_id: 'c0ffee00-0000-4000-8000-000000000001',
  generation_id: 'g-1',
  hook_event_name: 'stop',
  workspace_roots: ['/home/user/project'],
  cursor_version: VERSION,
  user_email: 'user@example.com',
  transcript_path: '/home/user/.cursor/transcript.jsonl',
  status: 'completed',
  loop_count: 0,
  ...fields,
});

export const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);
export const joined = (...parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);

const plain = bytesOf(JSON.stringify(stopPayload()));

/** `size` bytes in all: the payload, then spaces (JSON allows them) up to the size. */
export function paddedPayload(size: number): Uint8Array {
  const padded = new Uint8Array(size).fill(0x20);
  padded.set(plain);
  return padded;
}

/** What arrives on stdin, and the problem readStopEvent names for it. */
export const MATRIX: readonly (readonly [string, Uint8Array, string | null])[] = [
  ['a plain payload', plain, null],
  ['one byte-order mark', joined(BOM, plain), null],
  ['two byte-order marks', joined(BOM, BOM, plain), null],
  ['empty stdin', new Uint8Array(0), 'empty'],
  ['exactly MAX_STOP_PAYLOAD_BYTES', paddedPayload(MAX_STOP_PAYLOAD_BYTES), null],
  ['MAX_STOP_PAYLOAD_BYTES + 1 bytes', paddedPayload(MAX_STOP_PAYLOAD_BYTES + 1), 'oversized'],
  [
    'bytes that are not UTF-8',
    joined(bytesOf('{"status": "'), Uint8Array.of(0xc3, 0x28), bytesOf('"}')),
    'not-utf8',
  ],
  ['text that is not JSON', bytesOf('{"hook_event_name": "stop"'), 'not-json'],
  ['JSON that is not an object', bytesOf('["stop"]'), 'not-object'],
  [
    'a payload without cursor_version',
    bytesOf(JSON.stringify(stopPayload({ cursor_version: undefined }))),
    null,
  ],
  ['a payload without status', bytesOf(JSON.stringify(stopPayload({ status: undefined }))), null],
  [
    'a payload with unknown fields',
    bytesOf(JSON.stringify(stopPayload({ tokens_in: 12, future: { a: [1] } }))),
    null,
  ],
];
