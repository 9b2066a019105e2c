// The contract file a receipt was made with: decoded as strictly as the rest of the ledger,
// read as absent from older ledgers, committed with its write and kept through remove and
// disable, and standing only for a receipt of its own shell.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReceiptJSON } from '../../src/index.js';
import { Operation } from '../../src/index.js';
import {
  beginPending,
  commitPending,
  disableRecord,
  recordReceipt,
  releaseRecord,
} from '../../src/node/ledger/fence.js';
import {
  type ContractFileRecord,
  decodeLedger,
  EMPTY_RECORD,
  encodeLedger,
  knownContractFile,
  type LedgerRecord,
} from '../../src/node/ledger/ledger.js';
import { ledgerRefusal, operate, workspace } from './support.js';

let receipt: ReceiptJSON;
beforeAll(async () => {
  receipt = (await operate(workspace(), Operation.Install)).receipt as ReceiptJSON;
});

const SHA = 'a'.repeat(64);
const contractFile = (fields: Record<string, unknown> = {}) => ({
  path: '/records/cursor.json',
  id: 'qualified-shell',
  sha256: SHA,
  ...fields,
});
const record = (fields: Record<string, unknown> = {}) => ({
  generation: 1,
  receipt,
  removed: null,
  released: null,
  pending: null,
  heartbeat: null,
  disabled: null,
  ...fields,
});
const ledger = (value: unknown, version = 4) =>
  new TextEncoder().encode(
    JSON.stringify({ cursorhooksLedger: version, files: { '/h/hooks.json': value } }),
  );

describe('decoding the contract file', () => {
  it('reads a version 3 record as having no contract file (red: the version bump refuses every existing ledger)', () => {
    expect(decodeLedger(ledger(record(), 3)).get('/h/hooks.json')?.contractFile).toBeNull();
  });

  it('refuses a version 3 record that carries one (red: a key of a later version is taken from an older ledger)', () => {
    expect(ledgerRefusal(ledger(record({ contractFile: contractFile() }), 3))).toBe(
      'ledger-malformed',
    );
  });

  it('round-trips a version 4 record and its pending write (red: the field is dropped on the way out or in)', () => {
    const written: LedgerRecord = {
      ...EMPTY_RECORD,
      generation: 2,
      receipt,
      contractFile: contractFile() as ContractFileRecord,
      pending: {
        operation: Operation.Update,
        intended: receipt,
        heartbeat: null,
        disable: false,
        contractFile: contractFile({ path: '/moved/cursor.json' }) as ContractFileRecord,
      },
    };
    const bytes = encodeLedger(new Map([['/h/hooks.json', written]]));
    expect(decodeLedger(bytes).get('/h/hooks.json')).toEqual(written);
  });

  it('refuses a version 4 record without the key (red: a truncated record is read as having none)', () => {
    expect(ledgerRefusal(ledger(record()))).toBe('ledger-malformed');
  });

  it.each([
    ['a relative path', contractFile({ path: 'records/cursor.json' })],
    ['a path with NUL', contractFile({ path: '/records/a\0b.json' })],
    ['a path that is no string', contractFile({ path: 7 })],
    ['an empty id', contractFile({ id: '' })],
    ['an id that is no string', contractFile({ id: ['cursor'] })],
    ['an upper-case digest', contractFile({ sha256: 'A'.repeat(64) })],
    ['a short digest', contractFile({ sha256: 'a'.repeat(63) })],
    ['a prefixed digest', contractFile({ sha256: `sha256:${'a'.repeat(64)}` })],
    ['a digest with a newline', contractFile({ sha256: `${'a'.repeat(64)}\n` })],
    ['an extra key', contractFile({ size: 3 })],
    ['a missing key', { path: '/records/cursor.json', id: 'x' }],
    ['a string', '/records/cursor.json'],
    ['an array', ['/records/cursor.json', 'x', SHA]],
  ])(
    'refuses %s as ledger-malformed, on the record and on its pending write (red: a hostile contract file is trusted)',
    (_, hostile) => {
      expect(ledgerRefusal(ledger(record({ contractFile: hostile })))).toBe('ledger-malformed');
      const pending = {
        operation: Operation.Install,
        intended: receipt,
        heartbeat: null,
        disable: false,
        contractFile: hostile,
      };
      expect(ledgerRefusal(ledger(record({ pending, contractFile: null })))).toBe(
        'ledger-malformed',
      );
    },
  );
});

describe('the contract file through the fence', () => {
  const file = (path: string) => ({ path, id: receipt.shell, sha256: SHA });

  it('is recorded by the commit of the write that named it (red: the contract file is lost or recorded before the write landed)', () => {
    const pending = beginPending(
      EMPTY_RECORD,
      Operation.Install,
      receipt,
      null,
      false,
      file('/r/a'),
    );
    expect(pending.contractFile).toBeNull();
    expect(commitPending(pending).contractFile).toEqual(file('/r/a'));
  });

  it("keeps the record's own when the write names none (red: an update without --contract-file forgets where the contract is)", () => {
    const owned = { ...EMPTY_RECORD, generation: 1, receipt, contractFile: file('/r/a') };
    expect(commitPending(beginPending(owned, Operation.Update, receipt)).contractFile).toEqual(
      file('/r/a'),
    );
    expect(recordReceipt(owned, { ...receipt, entryDigest: `sha256:${SHA}` }).contractFile).toEqual(
      file('/r/a'),
    );
  });

  it('keeps it through remove, disable and release (red: enable or status after a remove no longer finds the contract)', () => {
    const owned = { ...EMPTY_RECORD, generation: 1, receipt, contractFile: file('/r/a') };
    const removed = commitPending(beginPending(owned, Operation.Remove, null));
    expect(removed.contractFile).toEqual(file('/r/a'));
    const disabled = commitPending(beginPending(owned, Operation.Remove, null, null, true));
    expect(disabled.contractFile).toEqual(file('/r/a'));
    expect(disableRecord(removed).contractFile).toEqual(file('/r/a'));
    expect(releaseRecord(owned).contractFile).toEqual(file('/r/a'));
  });
});

describe('knownContractFile', () => {
  const file = { path: '/r/a', sha256: SHA };

  it("stands for the receipt's shell, owned, turned off, removed or released (red: the record is not found after disable or remove)", () => {
    const own = { ...file, id: receipt.shell };
    const owned = { ...EMPTY_RECORD, receipt, contractFile: own };
    expect(knownContractFile(owned)).toEqual(own);
    const removed = { generation: 2, receipt };
    const off = { ...EMPTY_RECORD, removed, disabled: removed, contractFile: own };
    expect(knownContractFile(off)).toEqual(own);
    const released = { ...EMPTY_RECORD, released: { generation: 2, receipts: [receipt] } };
    expect(knownContractFile({ ...released, contractFile: own })).toEqual(own);
  });

  it('is null for a contract id no receipt of the record names (red: a record of another shell is registered in its place)', () => {
    const other = { ...EMPTY_RECORD, receipt, contractFile: { ...file, id: 'another-shell' } };
    expect(knownContractFile(other)).toBeNull();
    expect(
      knownContractFile({ ...EMPTY_RECORD, contractFile: { ...file, id: receipt.shell } }),
    ).toBeNull();
  });
});
