import { describe, expect, it } from 'vitest';
import {
  DarwinUserShell20260918,
  LinuxUserShell32212,
  Operation,
  plan,
  verifyOwned,
} from '../../src/index.js';
import { decodeStrict, utf8 } from '../support/common.js';
import {
  bytes,
  ENTRY,
  expectOk,
  installed,
  newFile,
  OTHER_SPEC,
  receiptOf,
  refused,
  removeReq,
  repairReq,
  req,
  SPEC,
} from './support.js';

const BASE = {
  version: 1,
  hooks: { afterFileEdit: [{ command: 'fmt' }], stop: [{ command: 'a' }] },
  n: 1.5,
};

/** Install into `doc`, then Remove: the document and the receipt Repair starts from. */
function removedFrom(doc: unknown) {
  const install = installed(doc);
  const removed = expectOk(plan(removeReq(install.document, install.receipt)));
  return { ...install, removed: removed.desired };
}

describe('Repair', () => {
  it('restores the entry after Remove with the same digests and the pre-remove bytes when the entry was last, or repair drifts from install', () => {
    for (const doc of [BASE, { version: 1 }, { version: 1, hooks: { stop: [] } }]) {
      const { document, receipt, removed } = removedFrom(doc);
      const result = plan(repairReq(removed, receipt));
      expect(receiptOf(result).toJSON()).toEqual(receipt.toJSON());
      expect(result.noOp).toBe(false);
      expect(decodeStrict(result.desired)).toBe(decodeStrict(document));
    }
  });

  it('appends the entry last when it was not last before, and the result verifies, or repair refuses a restorable owner', () => {
    const doc = { version: 1, hooks: { stop: [ENTRY, { command: 'a' }] } };
    const { receipt } = installed({ version: 1, hooks: { stop: [{ command: 'a' }] } });
    const removed = expectOk(plan(removeReq(bytes(doc), receipt))).desired;
    const result = plan(repairReq(removed, receipt));
    expect(receiptOf(result).toJSON()).toEqual(receipt.toJSON());
    expect(decodeStrict(result.desired)).toBe(
      newFile({ version: 1, hooks: { stop: [{ command: 'a' }, ENTRY] } }),
    );
    expect(() => verifyOwned(result.desired, receipt)).not.toThrow();
  });

  it('is a byte no-op with the same receipt when the owner is intact and nothing else changed, or repair rewrites a healthy file', () => {
    const { document, receipt } = installed(BASE);
    const result = plan(repairReq(document, receipt));
    expect(receiptOf(result).toJSON()).toEqual(receipt.toJSON());
    expect(result.noOp).toBe(true);
    expect([...result.desired]).toEqual([...document]);
  });

  const drifts: readonly (readonly [string, (source: string) => string])[] = [
    ['a foreign entry edited', (s) => s.replace('"fmt"', '"fmt2"')],
    ['a foreign number lexeme changed', (s) => s.replace('1.5', '1.50')],
    [
      'a foreign entry removed',
      (s) =>
        s.replace(
          '"afterFileEdit": [\n      {\n        "command": "fmt"\n      }\n    ]',
          '"afterFileEdit": []',
        ),
    ],
    ['a root member added', (s) => s.replace('"version": 1,', '"version": 1, "x": null,')],
    [
      'a foreign empty event "future": [] added',
      (s) => s.replace('"hooks": {', '"hooks": {"future": [],'),
    ],
  ];

  it.each(drifts)(
    'refuses %s with remainder-drift (AbsenceUnproven) with the owner absent, or a user edit is overwritten by a reinstall',
    (_name, edit) => {
      const { receipt, removed } = removedFrom(BASE);
      const edited = utf8(edit(decodeStrict(removed)));
      expect(decodeStrict(edited)).not.toBe(decodeStrict(removed));
      refused(repairReq(edited, receipt), 'remainder-drift', 'absence');
    },
  );

  it.each(drifts)(
    'refuses %s with remainder-drift (AbsenceUnproven) with the owner intact, or drift is ignored when the owner survives',
    (_name, edit) => {
      const { document, receipt } = installed(BASE);
      const edited = utf8(edit(decodeStrict(document)));
      expect(decodeStrict(edited)).not.toBe(decodeStrict(document));
      expect(() => verifyOwned(edited, receipt)).not.toThrow();
      refused(repairReq(edited, receipt), 'remainder-drift', 'absence');
    },
  );

  it.each([
    ['"stop": [] left by Remove', '{"version":1,"hooks":{"stop":[]}}'],
    ['"hooks": {}', '{"version":1,"hooks":{}}'],
    ['hooks deleted entirely', '{"version":1}'],
    ['whitespace and escapes changed', '{ "\\u0076ersion" : 1 }'],
  ])(
    'accepts %s as the same remainder as {"version":1}, or the empty-container normalisation of SPEC §5 is missing',
    (_name, doc) => {
      const { receipt } = installed({ version: 1 });
      const result = plan(repairReq(utf8(doc), receipt));
      expect(receiptOf(result).toJSON()).toEqual(receipt.toJSON());
      expect(() => verifyOwned(result.desired, receipt)).not.toThrow();
    },
  );

  it.each([
    ['re-indented', (s: string) => s.replaceAll('\n    ', '\n\t')],
    [
      'escaped differently',
      (s: string) => s.replace('"fmt"', '"\\u0066mt"').replace('"a"', '"\\u0061"'),
    ],
    [
      'with root members reordered',
      (s: string) =>
        s.replace('"version": 1,', '"n": 1.5,').replace(',\n  "n": 1.5', ',\n  "version": 1'),
    ],
  ])(
    'treats a remainder %s as unchanged, or the digest is taken over raw bytes instead of the canonical form',
    (_name, edit) => {
      const { document, receipt, removed } = removedFrom(BASE);
      const intact = utf8(edit(decodeStrict(document)));
      const absent = utf8(edit(decodeStrict(removed)));
      expect(decodeStrict(intact)).not.toBe(decodeStrict(document));
      expect(receiptOf(plan(repairReq(intact, receipt))).toJSON()).toEqual(receipt.toJSON());
      expect(receiptOf(plan(repairReq(absent, receipt))).toJSON()).toEqual(receipt.toJSON());
    },
  );

  it('is a no-op for an intact owner moved to the front of stop, and refuses foreign elements reordered, or the remainder is positional for the owner or blind to foreign order', () => {
    const { receipt } = installed({
      version: 1,
      hooks: { stop: [{ command: 'a' }, { command: 'b' }] },
    });
    const moved = bytes({
      version: 1,
      hooks: { stop: [ENTRY, { command: 'a' }, { command: 'b' }] },
    });
    const result = plan(repairReq(moved, receipt));
    expect(receiptOf(result).toJSON()).toEqual(receipt.toJSON());
    expect(result.noOp).toBe(true);
    const swapped = bytes({
      version: 1,
      hooks: { stop: [{ command: 'b' }, { command: 'a' }, ENTRY] },
    });
    refused(repairReq(swapped, receipt), 'remainder-drift', 'absence');
  });

  it('accepts specs equal to the receipted spec and the receipted shell restated, or a faithful restatement is refused', () => {
    const { receipt, removed } = removedFrom(BASE);
    const result = plan(
      req(Operation.Repair, removed, {
        previous: receipt,
        specs: [{ selector: SPEC.selector, executable: SPEC.executable }],
        shell: LinuxUserShell32212,
        executableVerified: true,
      }),
    );
    expect(receiptOf(result).toJSON()).toEqual(receipt.toJSON());
  });

  it.each([
    ['another spec', [OTHER_SPEC]],
    ['the spec twice', [SPEC, SPEC]],
    ['no spec in a list', []],
    ['the spec with another selector', [{ ...SPEC, selector: `${SPEC.selector}.bak` }]],
    ['the spec with another executable', [{ ...SPEC, executable: `${SPEC.executable}-2` }]],
  ])(
    'refuses %s with spec-mismatch, or Repair installs something other than the receipted entry',
    (_name, specs) => {
      const { receipt, removed } = removedFrom(BASE);
      refused(
        req(Operation.Repair, removed, { previous: receipt, specs, executableVerified: true }),
        'spec-mismatch',
        'conflict',
      );
    },
  );

  it.each([
    ['an object', { 0: SPEC, length: 1 }],
    ['a string', 'specs'],
    ['a number', 1],
  ])(
    'refuses specs given as %s with spec-malformed, or Repair reads a non-array as the spec list',
    (_name, specs) => {
      const { receipt, removed } = removedFrom(BASE);
      refused(
        req(Operation.Repair, removed, { previous: receipt, specs, executableVerified: true }),
        'spec-malformed',
        'conflict',
      );
    },
  );

  it('refuses another shell with shell-mismatch even when it renders the same entry, or Repair rewrites receipts under another contract', () => {
    const { receipt, removed } = removedFrom(BASE);
    refused(
      req(Operation.Repair, removed, {
        previous: receipt,
        shell: DarwinUserShell20260918,
        executableVerified: true,
      }),
      'shell-mismatch',
      'conflict',
    );
  });

  it('recreates an absent file only for a receipt whose remainder is that of {"version":1}, or a deleted file is resurrected without its foreign content', () => {
    for (const doc of [
      { version: 1 },
      { version: 1, hooks: { stop: [] } },
      { version: 1, hooks: {} },
    ]) {
      const { receipt } = installed(doc);
      for (const absent of [undefined, null, new Uint8Array(0)]) {
        const result = plan(repairReq(absent, receipt));
        expect(receiptOf(result).toJSON()).toEqual(receipt.toJSON());
        expect(decodeStrict(result.desired)).toBe(
          newFile({ version: 1, hooks: { stop: [ENTRY] } }),
        );
      }
    }
    for (const doc of [BASE, { version: 1, hooks: { future: [] } }, { version: 1, x: 0 }]) {
      const { receipt } = installed(doc);
      refused(repairReq(undefined, receipt), 'remainder-drift', 'absence');
    }
  });

  it('refuses without a receipt with receipt-required, or Repair becomes an unreceipted install', () => {
    refused(
      req(Operation.Repair, bytes({ version: 1 }), { specs: [SPEC], executableVerified: true }),
      'receipt-required',
      'conflict',
    );
  });
});
