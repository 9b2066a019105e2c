// checkStopEvent as Cursor's Windows stdin reaches it: byte-order marks before the payload, in a
// string or in bytes, and a size limit in UTF-8 bytes whichever it is given.
import { describe, expect, it } from 'vitest';
import { checkStopEvent, MAX_STOP_PAYLOAD_BYTES } from '../../src/observer/index.js';
import { qualifiedContract } from '../../src/shell/qualification-record.js';
import { record } from '../shell/records.js';
import { BOM, bytesOf, joined, VERSION } from './payloads.js';

const contract = qualifiedContract(record());
const payload = JSON.stringify({ hook_event_name: 'stop', cursor_version: VERSION });

describe('checkStopEvent', () => {
  it.each([1, 2, 3])(
    'accepts %i leading byte-order marks in a string (red: a Windows payload is payload-unreadable)',
    (marks) => {
      expect(checkStopEvent('\ufeff'.repeat(marks) + payload, contract).verdict).toBe('qualified');
    },
  );

  it.each([1, 2, 3])(
    'accepts %i leading byte-order marks in bytes (red: a mark, or a second one, makes it unreadable)',
    (marks) => {
      const bytes = joined(...Array.from({ length: marks }, () => BOM), bytesOf(payload));
      expect(checkStopEvent(bytes, contract).verdict).toBe('qualified');
    },
  );

  it('refuses a byte-order mark inside the payload (red: marks are dropped anywhere, not only before it)', () => {
    expect(checkStopEvent(` \ufeff${payload}`, contract).verdict).toBe('payload-unreadable');
  });

  // 'é' is one UTF-16 unit and two UTF-8 bytes: a count of units lets a 2 MiB string through.
  it('counts the size limit of a string in UTF-8 bytes (red: it counts UTF-16 units)', () => {
    const fill = (bytes: number) => {
      const body = `{"hook_event_name": "stop", "cursor_version": "${VERSION}", "x": "`;
      const room = bytes - bytesOf(body).length - 2;
      return `${body}${'é'.repeat(room >> 1)}${room % 2 === 1 ? 'a' : ''}"}`;
    };
    expect(bytesOf(fill(MAX_STOP_PAYLOAD_BYTES)).length).toBe(MAX_STOP_PAYLOAD_BYTES);
    expect(checkStopEvent(fill(MAX_STOP_PAYLOAD_BYTES), contract).verdict).toBe('qualified');
    expect(checkStopEvent(fill(MAX_STOP_PAYLOAD_BYTES + 1), contract).verdict).toBe(
      'payload-unreadable',
    );
    const pairs = `{"x": "${'😀'.repeat(MAX_STOP_PAYLOAD_BYTES / 4)}"}`;
    expect(checkStopEvent(pairs, contract).verdict).toBe('payload-unreadable');
  });

  it('counts byte-order marks toward the limit, as readStopEvent does (red: the two limits differ)', () => {
    const padded = payload.padEnd(MAX_STOP_PAYLOAD_BYTES - 3, ' ');
    expect(checkStopEvent(`\ufeff${padded}`, contract).verdict).toBe('qualified');
    expect(checkStopEvent(`\ufeff${padded} `, contract).verdict).toBe('payload-unreadable');
  });
});
