import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  Operation,
  plan,
  Receipt,
  type ReceiptJSON,
  verifyOwned,
  WindowsPowerShellStop20261001,
  WindowsUnqualified,
} from '../../src/index.js';
import { thrownBy, utf8 } from '../support/common.js';
import {
  expectError,
  expectOk,
  expectOwnerRefused,
  installed,
  OTHER_SPEC,
  ownerRequests,
  type Reason,
  receiptOf,
  refused,
  removeReq,
  repairReq,
  updateReq,
  WRITE,
} from './support.js';

const BASE = { version: 1, hooks: { afterFileEdit: [{ command: 'fmt' }], stop: [] } };
const { document, receipt } = installed(BASE);
const JSON_RECEIPT: ReceiptJSON = receipt.toJSON();
const OTHER_DIGEST = `sha256:${'0'.repeat(64)}`;

type Tamper = (json: Record<string, unknown>) => unknown;

/** A writable deep copy of the valid receipt, changed by `edit`. */
function tampered(edit: Tamper): unknown {
  const copy = JSON.parse(JSON.stringify(JSON_RECEIPT)) as Record<string, unknown>;
  const result = edit(copy);
  return result === undefined ? copy : result;
}

function set(key: string, value: unknown): Tamper {
  return (json) => {
    json[key] = value;
  };
}

function drop(key: string): Tamper {
  return (json) => {
    delete json[key];
  };
}

function setSpec(value: unknown): Tamper {
  return (json) => {
    json.spec = value;
  };
}

const MALFORMED: readonly (readonly [string, Tamper])[] = [
  ['version 2', set('version', 2)],
  ['version "1"', set('version', '1')],
  ['version null', set('version', null)],
  ['version missing', drop('version')],
  ['event "Stop"', set('event', 'Stop')],
  ['event "afterFileEdit"', set('event', 'afterFileEdit')],
  ['event missing', drop('event')],
  ['entryDigest in upper case', set('entryDigest', JSON_RECEIPT.entryDigest.toUpperCase())],
  ['entryDigest with a trailing newline', set('entryDigest', `${JSON_RECEIPT.entryDigest}\n`)],
  ['entryDigest truncated', set('entryDigest', JSON_RECEIPT.entryDigest.slice(0, -1))],
  ['entryDigest as sha1', set('entryDigest', `sha1:${'0'.repeat(40)}`)],
  // Each just outside a hex digit range, and a prefix in another case: the checker has edges.
  ...['/', ':', '`', 'g', 'G'].map((bad): [string, ReturnType<typeof set>] => [
    `entryDigest holding ${bad}`,
    set('entryDigest', `${JSON_RECEIPT.entryDigest.slice(0, -1)}${bad}`),
  ]),
  [
    'entryDigest with SHA256: prefix',
    set('entryDigest', JSON_RECEIPT.entryDigest.replace('sha256', 'SHA256')),
  ],
  ['entryDigest a number', set('entryDigest', 1)],
  // A String object has the length, prefix and digits of a digest, but is no string.
  ['entryDigest a String object', set('entryDigest', new String(JSON_RECEIPT.entryDigest))],
  [
    'remainderDigest a String object',
    set('remainderDigest', new String(JSON_RECEIPT.remainderDigest)),
  ],
  ['entryDigest missing', drop('entryDigest')],
  ['remainderDigest without prefix', set('remainderDigest', '0'.repeat(64))],
  ['remainderDigest null', set('remainderDigest', null)],
  ['remainderDigest missing', drop('remainderDigest')],
  ['spec null', setSpec(null)],
  ['spec an array', setSpec([OTHER_SPEC.executable, OTHER_SPEC.selector])],
  ['spec a string', setSpec('spec')],
  ['spec missing selector', setSpec({ executable: OTHER_SPEC.executable })],
  ['spec with an extra key', setSpec({ ...JSON_RECEIPT.spec, name: 'x' })],
  ['spec executable a number', setSpec({ ...JSON_RECEIPT.spec, executable: 7 })],
  ['spec missing', drop('spec')],
  ['shell a number', set('shell', 42)],
  ['shell null', set('shell', null)],
  ['shell missing', drop('shell')],
  ['an extra key', set('issuedAt', '2026-01-01')],
  ['an extra undefined key', set('extra', undefined)],
  [
    'an extra symbol key',
    (json) => {
      json[Symbol.for('x') as unknown as string] = 1;
    },
  ],
  [
    'an extra non-enumerable key',
    (json) => {
      Object.defineProperty(json, 'hidden', { value: 1, enumerable: false });
    },
  ],
  ['inherited fields', (json) => Object.create(json)],
  ['an array', () => [JSON_RECEIPT]],
  ['a string', () => JSON.stringify(JSON_RECEIPT)],
  ['a number', () => 1],
  ['true', () => true],
];

describe('Receipts', () => {
  it('round-trips through toJSON, fromJSON and JSON text, or hosts cannot persist receipts', () => {
    expect(Receipt.fromJSON(receipt.toJSON()).toJSON()).toEqual(JSON_RECEIPT);
    expect(Receipt.fromJSON(JSON.parse(JSON.stringify(receipt))).toJSON()).toEqual(JSON_RECEIPT);
    expect(Receipt.fromJSON(receipt).toJSON()).toEqual(JSON_RECEIPT);
    expect(Receipt.fromJSON(receipt)).toBeInstanceOf(Receipt);
    expect(Object.keys(JSON.parse(JSON.stringify(receipt))).sort()).toEqual(
      Object.keys(JSON_RECEIPT).sort(),
    );
  });

  it.each(MALFORMED)(
    'refuses a receipt with %s as receipt-malformed in fromJSON, every operation and verifyOwned, or a corrupt ledger entry is trusted',
    (_name, edit) => {
      const bad = tampered(edit);
      expectError(
        thrownBy(() => Receipt.fromJSON(bad)),
        'receipt-malformed',
        'conflict',
        'fromJSON',
      );
      expectOwnerRefused(document, bad, 'receipt-malformed', 'conflict');
    },
  );

  it.each(MALFORMED)(
    'refuses a receipt with %s as receipt-malformed in the public constructor too, or new Receipt() checks less than fromJSON',
    (_name, edit) => {
      const bad = tampered(edit) as ReceiptJSON;
      expect(thrownBy(() => new Receipt(bad))).toMatchObject({ reason: 'receipt-malformed' });
    },
  );

  /** A Receipt-prototype object with the valid fields plus a foreign one. */
  const forged = (): unknown =>
    Object.assign(Object.create(Receipt.prototype), JSON_RECEIPT, { foreign: 'extra' });

  it('refuses a Receipt-prototype object carrying extra properties in fromJSON as receipt-malformed, or the prototype vouches for unchecked fields', () => {
    expect(forged()).toBeInstanceOf(Receipt);
    expectError(
      thrownBy(() => Receipt.fromJSON(forged())),
      'receipt-malformed',
      'conflict',
      'fromJSON',
    );
  });

  it('refuses a Receipt-prototype object carrying extra properties as previous and in verifyOwned with receipt-malformed, or plan trusts a forged instance', () => {
    expectOwnerRefused(document, forged(), 'receipt-malformed', 'conflict');
  });

  it('refuses an empty Receipt-prototype object in fromJSON with a ConflictError receipt-malformed, not a TypeError, or fromJSON breaks its throws-ConflictError contract', () => {
    const empty: unknown = Object.create(Receipt.prototype);
    expectError(
      thrownBy(() => Receipt.fromJSON(empty)),
      'receipt-malformed',
      'conflict',
      'fromJSON',
    );
  });

  it('refuses an empty Receipt-prototype object as previous and in verifyOwned with receipt-malformed, or a crash is reported as unexpected-failure', () => {
    expectOwnerRefused(document, Object.create(Receipt.prototype), 'receipt-malformed', 'conflict');
  });

  const MISMATCHED: readonly (readonly [string, Tamper])[] = [
    ['another valid entry digest', set('entryDigest', OTHER_DIGEST)],
    ['the remainder digest as entry digest', set('entryDigest', JSON_RECEIPT.remainderDigest)],
    ['another executable', setSpec({ ...JSON_RECEIPT.spec, executable: OTHER_SPEC.executable })],
    ['another selector', setSpec({ ...JSON_RECEIPT.spec, selector: OTHER_SPEC.selector })],
  ];

  it.each(MISMATCHED)(
    'refuses a well-formed receipt with %s as receipt-entry-mismatch, or an invented receipt adopts an entry',
    (_name, edit) => {
      const bad = tampered(edit);
      expect(() => Receipt.fromJSON(bad)).not.toThrow();
      expectOwnerRefused(document, bad, 'receipt-entry-mismatch', 'conflict');
    },
  );

  it.each([
    ['an unknown shell', 'bash', 'shell-unsupported'],
    ['WindowsUnqualified', WindowsUnqualified, 'shell-unsupported'],
    ['an inherited key', '__proto__', 'shell-unsupported'],
    [
      'another registered shell whose grammar refuses the spec',
      WindowsPowerShellStop20261001,
      'path-forward-slash',
    ],
  ] as const)(
    'refuses a receipt naming %s as Unsupported (%s), or an unqualified contract is trusted',
    (_name, shell, reason: Reason) => {
      const bad = tampered(set('shell', shell));
      expectOwnerRefused(document, bad, reason, 'unsupported');
    },
  );

  it('ignores a changed remainder digest for Install, Update, Remove and verifyOwned but refuses it in Repair, or ownership depends on foreign state', () => {
    const bad = tampered(set('remainderDigest', OTHER_DIGEST));
    expect(() => verifyOwned(document, bad as ReceiptJSON)).not.toThrow();
    for (const [name, request] of ownerRequests(document, bad)) {
      if (name === 'repair') refused(request, 'remainder-drift', 'absence', name);
      else expectOk(plan(request), name);
    }
  });

  it('treats previous as a Receipt and as a plain object identically in every operation, or ledgers read from JSON behave differently', () => {
    const plain: unknown = JSON.parse(JSON.stringify(receipt));
    const edited = utf8(new TextDecoder().decode(document).replace('"fmt"', '"fmt2"'));
    for (const doc of [document, edited, utf8('{"version":1}'), undefined]) {
      const pairs = [
        ...ownerRequests(doc, receipt).map(
          ([name, request]) => [name, request, plan(request)] as const,
        ),
      ];
      for (const [name, request, viaClass] of pairs) {
        const viaPlain = plan({ ...request, previous: plain as ReceiptJSON });
        expect(viaPlain.error?.reason, name).toBe(viaClass.error?.reason);
        expect([...viaPlain.desired], name).toEqual([...viaClass.desired]);
        expect(viaPlain.receipt?.toJSON(), name).toEqual(viaClass.receipt?.toJSON());
        expect(viaPlain.noOp, name).toBe(viaClass.noOp);
      }
    }
  });

  it('never carries foreign strings from the document, or receipts leak foreign bytes into host ledgers', () => {
    const markers = ['MARK-key', 'MARK-value', 'MARK-command', 'MARK-\u4e2d', 'MARK-lexeme'];
    const doc = utf8(
      `{"version":1,"MARK-key":"MARK-value","hooks":{"afterFileEdit":[{"command":"MARK-command"}],"stop":[{"command":"MARK-\\u4e2d"},12345678901234567890123]},"x":[1.25e-7,"MARK-lexeme"]}`,
    );
    const first = plan({ operation: Operation.Install, document: doc, ...WRITE });
    const issued = [receiptOf(first)];
    issued.push(
      receiptOf(
        plan({
          operation: Operation.Install,
          document: first.desired,
          ...WRITE,
          previous: issued[0] as Receipt,
        }),
      ),
    );
    const updated = plan(updateReq(first.desired, issued[0]));
    issued.push(receiptOf(updated));
    issued.push(receiptOf(plan(updateReq(first.desired, issued[0], WRITE.specs[0]))));
    const removed = expectOk(plan(removeReq(updated.desired, issued[2])));
    issued.push(receiptOf(plan(repairReq(removed.desired, issued[2]))));
    for (const issuedReceipt of issued) {
      const serialized = JSON.stringify(issuedReceipt);
      for (const marker of [...markers, '12345678901234567890123', '1.25e-7', 'fmt']) {
        expect(serialized).not.toContain(marker);
      }
    }
  });
});

describe('Receipt.fromJSON on hostile objects', () => {
  it('throws ConflictError receipt-malformed for a proxy whose traps throw, or a raw TypeError escapes fromJSON', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new TypeError('secret trap');
        },
      },
    );
    let caught: unknown;
    try {
      Receipt.fromJSON(hostile);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConflictError);
    expect((caught as ConflictError).reason).toBe('receipt-malformed');
  });
});
