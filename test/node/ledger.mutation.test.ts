// The ledger's decoder refuses every shape it does not know, field by field, and its writer
// keeps the file private and sorted: each case below is one rule a mutant broke.
import { statSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReceiptJSON } from '../../src/index.js';
import { Operation } from '../../src/index.js';
import {
  decodeLedger,
  EMPTY_RECORD,
  encodeLedger,
  type LedgerRecord,
  readLedger,
  updateLedgerRecord,
  withLedger,
} from '../../src/node/ledger/ledger.js';
import {
  errno,
  failing,
  isDataTemp,
  ledgerRefusal,
  operate,
  workspace,
  wrapSeam,
} from './support.js';

let receipt: ReceiptJSON;
beforeAll(async () => {
  const where = workspace();
  const outcome = await operate(where, Operation.Install);
  receipt = outcome.receipt as ReceiptJSON;
});

const utf8 = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));
/** A version-2 record with `fields` changed. */
const v2 = (fields: Record<string, unknown> = {}) => ({
  generation: 1,
  receipt,
  removed: null,
  released: null,
  pending: null,
  ...fields,
});
const ledger = (record: unknown, version: unknown = 2) =>
  utf8({ cursorhooksLedger: version, files: { '/h/hooks.json': record } });

describe('decoding', () => {
  it('has a real receipt to build records from (red: every row below fails on a missing key instead of its own defect)', () => {
    expect(ledgerRefusal(ledger(v2()))).toBeUndefined();
    expect(receipt).toBeDefined();
  });

  it('reads a version 2 record whole (red: a field is dropped or renamed on the way in)', () => {
    const record = v2({ released: { generation: 1, receipts: [receipt] } });
    expect(decodeLedger(ledger(record)).get('/h/hooks.json')).toEqual({
      ...record,
      heartbeat: null,
      disabled: null,
      contractFile: null,
    });
  });

  it('reads a version 1 record as released: null, with a Remove keeping its digest (red: old ledgers are refused)', () => {
    const { released: _, ...v1 } = v2({
      pending: { operation: Operation.Remove, intended: null, remainderDigest: 'abc' },
    });
    expect(decodeLedger(ledger(v1, 1)).get('/h/hooks.json')).toMatchObject({
      released: null,
      pending: { operation: Operation.Remove, intended: null },
    });
  });

  it.each([
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'ledger-malformed'],
    ['a version that is a string', utf8({ cursorhooksLedger: '2', files: {} }), 'ledger-malformed'],
    ['a version 5', utf8({ cursorhooksLedger: 5, files: {} }), 'ledger-version-unsupported'],
    ['files null', utf8({ cursorhooksLedger: 2, files: null }), 'ledger-malformed'],
    ['files an array', utf8({ cursorhooksLedger: 2, files: [] }), 'ledger-malformed'],
    ['files a string', utf8({ cursorhooksLedger: 2, files: 'x' }), 'ledger-malformed'],
    ['files a number', utf8({ cursorhooksLedger: 2, files: 5 }), 'ledger-malformed'],
    ['a root that is an array', utf8([]), 'ledger-malformed'],
    [
      'a root with an extra key',
      utf8({ cursorhooksLedger: 2, files: {}, x: 1 }),
      'ledger-malformed',
    ],
  ])(
    'refuses %s (red: a ledger it cannot read is taken as valid or given the wrong reason)',
    (_, bytes, reason) => {
      expect(ledgerRefusal(bytes)).toBe(reason);
    },
  );

  it.each([
    [
      'a missing key',
      () => {
        const { pending: _, ...rest } = v2();
        return { ...rest, other: null };
      },
    ],
    [
      'a version 1 key set in version 2',
      () => {
        const { released: _, ...rest } = v2();
        return rest;
      },
    ],
    ['a negative generation', () => v2({ generation: -1 })],
    ['a fractional generation', () => v2({ generation: 1.5 })],
    ['a receipt that is not one', () => v2({ receipt: { version: 1 } })],
    ['a removal without a receipt', () => v2({ removed: { generation: 1, receipt: null } })],
    ['a removal with a bad generation', () => v2({ removed: { generation: -1, receipt } })],
    ['a release of no receipt', () => v2({ released: { generation: 1, receipts: [] } })],
    [
      'a release of three receipts',
      () => v2({ released: { generation: 1, receipts: [receipt, receipt, receipt] } }),
    ],
    ['a release that is not a list', () => v2({ released: { generation: 1, receipts: receipt } })],
    ['a release of a null receipt', () => v2({ released: { generation: 1, receipts: [null] } })],
    [
      'a release with a bad generation',
      () => v2({ released: { generation: 'x', receipts: [receipt] } }),
    ],
    [
      'a pending unknown operation',
      () => v2({ pending: { operation: 'rename', intended: receipt } }),
    ],
    [
      'a pending Install without a receipt',
      () => v2({ pending: { operation: Operation.Install, intended: null } }),
    ],
    [
      'a pending Remove with a receipt',
      () => v2({ pending: { operation: Operation.Remove, intended: receipt } }),
    ],
    [
      'a pending with a version 1 digest in version 2',
      () =>
        v2({ pending: { operation: Operation.Remove, intended: null, remainderDigest: 'abc' } }),
    ],
  ])('refuses a record with %s (red: a damaged record is settled on)', (_, record) => {
    // Rows are functions: the receipt exists only once beforeAll has run.
    expect(ledgerRefusal(ledger(record()))).toBe('ledger-malformed');
  });

  it.each([
    [
      'a Remove without its digest',
      () => ({ operation: Operation.Remove, intended: null, remainderDigest: null }),
    ],
    [
      'an Install with a digest',
      () => ({ operation: Operation.Install, intended: receipt, remainderDigest: 'abc' }),
    ],
  ])('refuses a version 1 pending %s (red: an old damaged record is settled on)', (_, pending) => {
    const { released: _r, ...v1 } = v2({ pending: pending() });
    expect(ledgerRefusal(ledger(v1, 1))).toBe('ledger-malformed');
  });

  it('accepts a version 1 pending Install with its receipt and no digest value (red: old installs cannot settle)', () => {
    const { released: _r, ...v1 } = v2({
      pending: { operation: Operation.Install, intended: receipt, remainderDigest: null },
    });
    expect(decodeLedger(ledger(v1, 1)).get('/h/hooks.json')?.pending).toEqual({
      operation: Operation.Install,
      intended: receipt,
      heartbeat: null,
      disable: false,
      contractFile: null,
    });
  });

  it('refuses invalid UTF-8 inside a path (red: the path is read with U+FFFD and the record keyed by a file that does not exist)', () => {
    const valid = ledger(v2());
    const at = new TextDecoder().decode(valid).indexOf('/h/') + 1;
    const bytes = Uint8Array.from(valid);
    bytes[at] = 0xff;
    expect(ledgerRefusal(bytes)).toBe('ledger-malformed');
  });

  it('refuses a record that is null as malformed (red: a TypeError escapes as a bug instead of a refusal)', () => {
    expect(ledgerRefusal(ledger(null))).toBe('ledger-malformed');
  });

  it('accepts generation 0 (red: a record that never committed is refused)', () => {
    expect(decodeLedger(ledger(v2({ generation: 0 }))).get('/h/hooks.json')?.generation).toBe(0);
  });

  it('accepts a release of two receipts (red: an interrupted write released with its receipt is refused)', () => {
    const record = v2({ released: { generation: 2, receipts: [receipt, receipt] } });
    expect(decodeLedger(ledger(record)).get('/h/hooks.json')?.released?.receipts).toHaveLength(2);
  });
});

describe('encoding', () => {
  it('writes version 4 with the records sorted by path and a final newline (red: equal ledgers differ in bytes)', () => {
    const record: LedgerRecord = { ...EMPTY_RECORD, generation: 1 };
    const text = new TextDecoder().decode(
      encodeLedger(
        new Map([
          ['/b', record],
          ['/a', record],
          ['/c', record],
        ]),
      ),
    );
    expect(JSON.parse(text).cursorhooksLedger).toBe(4);
    expect(Object.keys(JSON.parse(text).files)).toEqual(['/a', '/b', '/c']);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "files"');
  });
});

describe('updating', () => {
  it('creates the ledger 0600 (red: another user can read which hooks the host owns)', async () => {
    const where = workspace();
    await updateLedgerRecord(where.ledger, where.hooks, () => ({ ...EMPTY_RECORD, generation: 1 }));
    expect(statSync(where.ledger).mode & 0o777).toBe(0o600);
  });

  it('writes nothing when the change returns the same record (red: every no-op pays a write)', async () => {
    const where = workspace();
    let renames = 0;
    const fs = wrapSeam((call) => {
      if (call === 'rename') renames++;
    });
    const same = await updateLedgerRecord(where.ledger, where.hooks, (record) => record, { fs });
    expect(same).toBe(EMPTY_RECORD);
    expect(renames).toBe(0);
  });

  it('skips the directory flush when not durable and flushes it otherwise (red: the commit pays a flush, or a pending record may be lost)', async () => {
    const where = workspace();
    let flushes = 0;
    const fs = wrapSeam((call, at) => {
      if (call === 'fsync' && at === where.dir) flushes++;
    });
    await withLedger(where.ledger, { fs }, async (open) => {
      await open.update(where.hooks, () => ({ ...EMPTY_RECORD, generation: 1 }));
      expect(flushes).toBe(1);
      await open.update(where.hooks, () => ({ ...EMPTY_RECORD, generation: 2 }), {
        durable: false,
      });
      expect(flushes).toBe(1);
      expect(open.record(where.hooks).generation).toBe(2);
    });
  });
});

describe('the seam and the role', () => {
  it('reads the ledger through the given seam (red: a host seam is bypassed on read)', async () => {
    const where = workspace();
    writeFileSync(where.ledger, encodeLedger(new Map()));
    await expect(readLedger(where.ledger, { fs: failing('open', 'EACCES') })).rejects.toMatchObject(
      {
        reason: 'permission-denied',
        role: 'ledger',
      },
    );
  });

  it('reads the ledger under its lock through the given seam (red: a host seam is bypassed under the lock)', async () => {
    const where = workspace();
    writeFileSync(where.ledger, encodeLedger(new Map()));
    const fs = failing('open', 'EACCES', (path) => path === where.ledger);
    await expect(withLedger(where.ledger, { fs }, async () => 'read')).rejects.toMatchObject({
      reason: 'permission-denied',
    });
  });

  it('names the ledger when writing it fails (red: a full disk is blamed on the hook file)', async () => {
    const where = workspace();
    const fs = wrapSeam((call, at) => {
      if (call === 'write' && at !== undefined && isDataTemp(at)) throw errno('ENOSPC');
    });
    const change = () => ({ ...EMPTY_RECORD, generation: 1 });
    await expect(
      updateLedgerRecord(where.ledger, where.hooks, change, { fs }),
    ).rejects.toMatchObject({
      reason: 'disk-full',
      role: 'ledger',
      path: where.ledger,
    });
  });
});
