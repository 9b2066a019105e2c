// readStopEvent on every case an observer meets, from a stream (as stdin), bytes and a string.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CursorHooksError } from '../../src/errors/errors.js';
import { MAX_STOP_PAYLOAD_BYTES, readStopEvent } from '../../src/observer/index.js';
import { BOM, bytesOf, joined, MATRIX, paddedPayload, stopPayload, VERSION } from './payloads.js';

/** A stream that hands over `bytes` in chunks of `size`, as a pipe does, then ends. */
const chunked = (bytes: Uint8Array, size = 65_536) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
      Buffer.from(bytes.subarray(i * size, (i + 1) * size)),
    ),
  );

describe('readStopEvent', () => {
  it.each(MATRIX)(
    'reads %s from a stream (red: it names the wrong problem or drops the payload)',
    async (_, bytes, problem) => {
      const read = await readStopEvent(chunked(bytes, 1000));
      expect(read.problem).toBe(problem);
      expect(read.payload === null).toBe(problem !== null);
      expect(read.bytes).toBe(Math.min(bytes.length, MAX_STOP_PAYLOAD_BYTES + 1));
    },
  );

  it.each(MATRIX)(
    'reads %s given as bytes, the same as from a stream (red: the two paths disagree)',
    async (_, bytes, problem) => {
      expect((await readStopEvent(bytes)).problem).toBe(problem);
    },
  );

  it('drops one and two byte-order marks, even split across chunks (red: a Windows payload is not-json)', async () => {
    const payload = bytesOf(JSON.stringify(stopPayload()));
    for (const input of [joined(BOM, payload), joined(BOM, BOM, payload)]) {
      const read = await readStopEvent(chunked(input, 2));
      expect(read.payload?.cursor_version).toBe(VERSION);
    }
    const text = JSON.stringify(stopPayload());
    expect((await readStopEvent(`\ufeff\ufeff${text}`)).payload?.cursor_version).toBe(VERSION);
  });

  it('reads no more than MAX_STOP_PAYLOAD_BYTES + 1 bytes of an endless stream, and answers without its end (red: an oversized stdin is read whole or waited for)', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += 65_536;
        this.push(Buffer.alloc(65_536, 0x20));
      },
    });
    const read = await readStopEvent(endless, { deadlineMs: 30_000 });
    expect(read).toEqual({
      payload: null,
      problem: 'oversized',
      bytes: MAX_STOP_PAYLOAD_BYTES + 1,
    });
    // Readable buffers ahead by its high-water mark at most; it never drains the source.
    expect(pulled).toBeLessThan(MAX_STOP_PAYLOAD_BYTES + 4 * 65_536);
  });

  it('takes maxBytes: exactly that many accepted, one more oversized (red: the limit is off by one)', async () => {
    const size = 4096;
    expect((await readStopEvent(paddedPayload(size), { maxBytes: size })).problem).toBe(null);
    expect((await readStopEvent(paddedPayload(size + 1), { maxBytes: size })).problem).toBe(
      'oversized',
    );
  });

  it('stops waiting at the deadline when stdin is held open (red: an observer waits for Cursor forever)', async () => {
    const open = new PassThrough();
    open.write(bytesOf('{"hook_event_name": "stop"}'));
    const read = await readStopEvent(open, { deadlineMs: 200 });
    expect(read).toEqual({ payload: null, problem: 'timed-out', bytes: 27 });
  });

  it('answers at once for a stream that has already ended (red: it waits for an end that came)', async () => {
    const ended = Readable.from([Buffer.from('{}')]);
    await readStopEvent(ended);
    expect((await readStopEvent(ended, { deadlineMs: 30_000 })).problem).toBe('empty');
  });

  it.each([
    ['maxBytes -1', undefined, { maxBytes: -1 }],
    ['maxBytes 1.5', undefined, { maxBytes: 1.5 }],
    ['deadlineMs 0', undefined, { deadlineMs: 0 }],
    ['deadlineMs NaN', undefined, { deadlineMs: Number.NaN }],
    ['an input that is no stream', 42, {}],
  ])(
    'rejects %s with observer-option-invalid (red: a bad option silently reads something else)',
    async (_, input, options) => {
      const read = readStopEvent(input as never, options);
      await expect(read).rejects.toBeInstanceOf(CursorHooksError);
      await expect(read).rejects.toMatchObject({ reason: 'observer-option-invalid' });
    },
  );
});
