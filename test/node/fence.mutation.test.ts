// The fence's record transitions and its decision table, case by case: a planner double says which
// receipt is intact or absent in which document, so every branch of decidePending is reached
// without building a hook file for each.
import { describe, expect, it } from 'vitest';
import { mock } from 'vitest-mock-extended';
import type { ReceiptJSON } from '../../src/domain/receipt.js';
import { CursorHooksError } from '../../src/errors/errors.js';
import {
  beginPending,
  commitPending,
  decidePending,
  type FencePlanner,
  recordReceipt,
  releaseRecord,
  rollBack,
  settle,
  verifies,
} from '../../src/node/ledger/fence.js';
import { EMPTY_RECORD, type LedgerRecord } from '../../src/node/ledger/ledger.js';
import { Operation } from '../../src/planner/operation.js';

/** A remove under way, as an input record holds it (spelled out: the fence builds its own). */
const PENDING_REMOVE: LedgerRecord['pending'] = {
  operation: Operation.Remove,
  intended: null,
  heartbeat: null,
  disable: false,
  contractFile: null,
};

function receipt(name: string): ReceiptJSON {
  return {
    version: 1,
    event: 'stop',
    spec: { executable: `/opt/${name}`, selector: `/etc/${name}.json` },
    shell: 'linux-user-3.22.12',
    entryDigest: `sha256:${name.padEnd(64, '0')}`,
    remainderDigest: `sha256:${'f'.repeat(64)}`,
  };
}

const A = receipt('a');
const B = receipt('b');

type State = 'intact' | 'absent' | 'modified' | 'bug';

/** A document naming each receipt's state by executable: `{"/opt/a":"intact"}`; unnamed: absent. */
function doc(states: Record<string, State>): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(states));
}

/** A planner whose verifyOwned reads the state out of such a document. */
function planner(): FencePlanner {
  const double = mock<FencePlanner>();
  double.verifyOwned.mockImplementation((document, owned) => {
    const states = JSON.parse(new TextDecoder().decode(document)) as Record<string, State>;
    const state = states[owned.spec.executable] ?? 'absent';
    if (state === 'absent') throw new CursorHooksError('owner-absent');
    if (state === 'modified') throw new CursorHooksError('owner-modified');
    if (state === 'bug') throw new TypeError('owner-absent');
    return undefined as never;
  });
  return double;
}

const owned = (r: ReceiptJSON, generation = 3): LedgerRecord => ({
  ...EMPTY_RECORD,
  generation,
  receipt: r,
});

describe('record transitions', () => {
  it('begins a pending write keeping everything else (red: the committed receipt is lost while pending)', () => {
    const record = owned(A);
    expect(beginPending(record, Operation.Update, B)).toEqual({
      ...record,
      pending: {
        operation: Operation.Update,
        intended: B,
        heartbeat: null,
        disable: false,
        contractFile: null,
      },
    });
  });

  it('commits an install or update as the new owner, one generation on, clearing removed and released (red: a stale removal or release survives a reinstall)', () => {
    const record: LedgerRecord = {
      generation: 4,
      receipt: null,
      removed: { generation: 2, receipt: A },
      released: { generation: 4, receipts: [A] },
      pending: {
        operation: Operation.Install,
        intended: B,
        heartbeat: null,
        disable: false,
        contractFile: null,
      },
      heartbeat: null,
      disabled: null,
      contractFile: null,
    };
    expect(commitPending(record)).toEqual({
      generation: 5,
      receipt: B,
      removed: null,
      released: null,
      pending: null,
      heartbeat: null,
      disabled: null,
      contractFile: null,
    });
  });

  it('commits a remove as removed at the new generation, keeping the removed receipt (red: status cannot point at what was removed)', () => {
    const record = beginPending(owned(A, 6), Operation.Remove, null);
    expect(commitPending(record)).toEqual({
      generation: 7,
      receipt: null,
      removed: { generation: 7, receipt: A },
      released: null,
      pending: null,
      heartbeat: null,
      disabled: null,
      contractFile: null,
    });
  });

  it('commits a remove of nothing keeping the earlier removal and clearing the release (red: an earlier removal is forgotten)', () => {
    const removed = { generation: 2, receipt: A };
    const record: LedgerRecord = {
      generation: 3,
      receipt: null,
      removed,
      released: { generation: 3, receipts: [B] },
      pending: PENDING_REMOVE,
      heartbeat: null,
      disabled: null,
      contractFile: null,
    };
    expect(commitPending(record)).toEqual({
      generation: 4,
      receipt: null,
      removed,
      released: null,
      pending: null,
      heartbeat: null,
      disabled: null,
      contractFile: null,
    });
  });

  it('leaves a record with nothing pending unchanged on commit and roll-back (red: a settled record gains a generation)', () => {
    const record = owned(A);
    expect(commitPending(record)).toBe(record);
    expect(rollBack(record)).toBe(record);
  });

  it('rolls back by dropping only the pending write (red: a roll-back changes the owner)', () => {
    const record = owned(A);
    expect(rollBack(beginPending(record, Operation.Update, B))).toEqual(record);
  });

  it('records a refreshed receipt only when it changed (red: every no-op bumps the generation, or a new receipt is dropped)', () => {
    const record = owned(A);
    expect(recordReceipt(record, { ...A })).toBe(record);
    expect(recordReceipt(record, B)).toEqual({ ...EMPTY_RECORD, generation: 4, receipt: B });
    expect(recordReceipt(EMPTY_RECORD, A)).toEqual({ ...EMPTY_RECORD, generation: 1, receipt: A });
  });

  it('settles forward by committing, back by rolling back, and leaves an unresolved one alone (red: a crash is settled the wrong way)', () => {
    const record = beginPending(owned(A), Operation.Update, B);
    expect(settle(record, 'forward')).toEqual(commitPending(record));
    expect(settle(record, 'back')).toEqual(rollBack(record));
    expect(settle(record, 'unresolved')).toBe(record);
  });
});

describe('releaseRecord', () => {
  it('releases the owner and a different pending receipt, both kept, one generation on (red: status loses an entry that may still stand)', () => {
    const record = beginPending(owned(A, 2), Operation.Update, B);
    expect(releaseRecord(record)).toEqual({
      generation: 3,
      receipt: null,
      removed: null,
      released: { generation: 3, receipts: [A, B] },
      pending: null,
      heartbeat: null,
      disabled: null,
      contractFile: null,
    });
  });

  it('keeps one receipt when the pending one is the owner`s (red: a receipt is listed twice)', () => {
    const record = beginPending(owned(A, 2), Operation.Repair, { ...A });
    expect(releaseRecord(record).released).toEqual({ generation: 3, receipts: [A] });
  });

  it('keeps an earlier removal and releases a pending install alone (red: a release forgets the removal or the pending entry)', () => {
    const removed = { generation: 1, receipt: B };
    const record: LedgerRecord = {
      ...EMPTY_RECORD,
      generation: 1,
      removed,
      pending: {
        operation: Operation.Install,
        intended: A,
        heartbeat: null,
        disable: false,
        contractFile: null,
      },
    };
    expect(releaseRecord(record)).toEqual({
      generation: 2,
      receipt: null,
      removed,
      released: { generation: 2, receipts: [A] },
      pending: null,
      heartbeat: null,
      disabled: null,
      contractFile: null,
    });
  });

  it('leaves a record owning nothing unchanged, and only drops a pending remove (red: releasing nothing bumps the generation)', () => {
    const record: LedgerRecord = { ...EMPTY_RECORD, generation: 5 };
    expect(releaseRecord(record)).toBe(record);
    const pendingRemove = {
      ...record,
      pending: PENDING_REMOVE,
    };
    expect(releaseRecord(pendingRemove)).toEqual(record);
  });
});

describe('decidePending', () => {
  const p = planner();

  it('is back when nothing is pending (red: a settled record is rolled forward)', () => {
    expect(decidePending(owned(A), doc({}), p)).toBe('back');
  });

  it('settles a remove: forward once the owner is absent, back while intact, unresolved if edited or nothing was owned (red: a crashed remove is guessed)', () => {
    const remove = beginPending(owned(A), Operation.Remove, null);
    expect(decidePending(remove, doc({}), p)).toBe('forward');
    expect(decidePending(remove, doc({ '/opt/a': 'intact' }), p)).toBe('back');
    expect(decidePending(remove, doc({ '/opt/a': 'modified' }), p)).toBe('unresolved');
    expect(decidePending(remove, doc({ '/opt/a': 'bug' }), p)).toBe('unresolved');
    const ownedNothing = beginPending(EMPTY_RECORD, Operation.Remove, null);
    expect(decidePending(ownedNothing, doc({}), p)).toBe('unresolved');
  });

  it('settles an update: forward when the new entry verifies, back when the old one does, else unresolved (red: an update is settled on the wrong state)', () => {
    const update = beginPending(owned(A), Operation.Update, B);
    expect(decidePending(update, doc({ '/opt/b': 'intact' }), p)).toBe('forward');
    expect(decidePending(update, doc({ '/opt/a': 'intact' }), p)).toBe('back');
    // Neither entry: an update never starts from an absent entry, so it cannot be rolled back.
    expect(decidePending(update, doc({}), p)).toBe('unresolved');
    expect(decidePending(update, doc({ '/opt/b': 'modified' }), p)).toBe('unresolved');
  });

  it('settles an install or repair back while its entry is absent, never when it is modified (red: an edited entry is taken for a write that never landed)', () => {
    for (const operation of [Operation.Install, Operation.Repair]) {
      const record = beginPending(EMPTY_RECORD, operation, A);
      expect(decidePending(record, doc({ '/opt/a': 'intact' }), p), operation).toBe('forward');
      expect(decidePending(record, doc({}), p), operation).toBe('back');
      expect(decidePending(record, doc({ '/opt/a': 'modified' }), p), operation).toBe('unresolved');
    }
  });

  it('takes a repair with an intact old owner back (red: an owner left intact by a crash is lost)', () => {
    const record = beginPending(owned(A), Operation.Repair, B);
    expect(decidePending(record, doc({ '/opt/a': 'intact', '/opt/b': 'modified' }), p)).toBe(
      'back',
    );
  });

  it('verifies only an intact owner, and a bug thrown by the planner is not an absent owner (red: verifies accepts an absent or edited entry)', () => {
    expect(verifies(doc({ '/opt/a': 'intact' }), A, p)).toBe(true);
    expect(verifies(doc({}), A, p)).toBe(false);
    expect(verifies(doc({ '/opt/a': 'modified' }), A, p)).toBe(false);
    const install = beginPending(EMPTY_RECORD, Operation.Install, A);
    expect(decidePending(install, doc({ '/opt/a': 'bug' }), p)).toBe('unresolved');
  });
});

describe('decidePending with planners that never look at a null receipt', () => {
  /** A planner that finds no owned entry at all in any document, whatever it is asked about. */
  const findsNothing = (): FencePlanner => {
    const double = mock<FencePlanner>();
    double.verifyOwned.mockImplementation(() => {
      throw new CursorHooksError('owner-absent');
    });
    return double;
  };

  /** A planner that verifies every receipt but the one for `/opt/a`, which it finds edited. */
  const allButA = (): FencePlanner => {
    const double = mock<FencePlanner>();
    double.verifyOwned.mockImplementation((_document, r) => {
      if (r?.spec.executable === '/opt/a') throw new CursorHooksError('owner-modified');
      return undefined as never;
    });
    return double;
  };

  it('leaves a remove of nothing unresolved without asking the planner (red: a pending remove with no owner is rolled forward)', () => {
    const removeNothing = beginPending(EMPTY_RECORD, Operation.Remove, null);
    expect(decidePending(removeNothing, doc({}), findsNothing())).toBe('unresolved');
  });

  it('never rolls back to an owner the record does not have (red: an install onto nothing is settled back by verifying null)', () => {
    const install = beginPending(EMPTY_RECORD, Operation.Install, A);
    expect(decidePending(install, doc({}), allButA())).toBe('unresolved');
  });
});
