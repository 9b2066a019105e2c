import { describe, expect, it } from 'vitest';
import {
  DarwinUserShell20260918,
  Operation,
  plan,
  verifyOwned,
  WindowsPowerShellStop20261001,
  WindowsUnqualified,
} from '../../src/index.js';
import { decodeStrict, utf8 } from '../support/common.js';
import {
  bytes,
  ENTRY,
  ENTRY_TEXT,
  entryOf,
  expectOk,
  expectVerifyRefused,
  installed,
  newFile,
  OTHER_COMMAND,
  OTHER_SPEC,
  receiptOf,
  refused,
  repairReq,
  req,
  SPEC,
  updateReq,
  WRITE,
} from './support.js';

const BASE = {
  version: 1,
  hooks: { afterFileEdit: [{ command: 'fmt' }], stop: [{ command: 'a' }] },
};

describe('Update', () => {
  it('replaces the owner in place with the newly rendered entry, following the layout, or the edit moves, duplicates or reformats', () => {
    const { document, receipt } = installed(BASE);
    const result = plan(updateReq(document, receipt));
    const next = receiptOf(result);
    expect(result.noOp).toBe(false);
    const expected = {
      ...BASE,
      hooks: { ...BASE.hooks, stop: [{ command: 'a' }, entryOf(OTHER_COMMAND)] },
    };
    expect(decodeStrict(result.desired)).toBe(newFile(expected));
    expect(next.spec).toEqual(OTHER_SPEC);
    expect(next.remainderDigest).toBe(receipt.remainderDigest);
    expect(next.entryDigest).toBe(installed(BASE, OTHER_SPEC).receipt.entryDigest);
  });

  it('hands ownership to the new receipt only, or the old receipt still verifies a replaced entry', () => {
    const { document, receipt } = installed(BASE);
    const result = plan(updateReq(document, receipt));
    const next = receiptOf(result);
    expect(() => verifyOwned(result.desired, next)).not.toThrow();
    expectVerifyRefused(result.desired, receipt, 'owner-absent', 'absence');
  });

  it('round-trips to the original bytes when updated back, or an update leaves residue', () => {
    const { document, receipt } = installed(BASE);
    const there = plan(updateReq(document, receipt));
    const back = plan(updateReq(there.desired, receiptOf(there), SPEC));
    expect(decodeStrict(expectOk(back).desired)).toBe(decodeStrict(document));
    expect(receiptOf(back).toJSON()).toEqual(receipt.toJSON());
  });

  it.each([
    ['afterFileEdit', `"afterFileEdit":[{"command":${JSON.stringify(OTHER_COMMAND)}}],`, ''],
    ['stop', '', `{"type":"x","command":${JSON.stringify(OTHER_COMMAND)}},`],
  ])(
    'refuses with command-collision when the new command already sits in %s and keeps both entries, or Update creates a duplicate owner',
    (_name, otherEvent, stopPrefix) => {
      const document = utf8(
        `{"version":1,"hooks":{${otherEvent}"stop":[${stopPrefix}${ENTRY_TEXT}]}}`,
      );
      const { receipt } = installed({ version: 1 });
      refused(updateReq(document, receipt), 'command-collision', 'conflict');
    },
  );

  it('is not revoked by legitimate foreign edits, and its receipt reflects the edited remainder, or hosts lose their entry to any user edit', () => {
    const { document, receipt } = installed(BASE);
    const edited = decodeStrict(document)
      .replace('"fmt"', '"fmt --all"')
      .replace('"version": 1,', '"version": 1,\n  "theme": 1.50,');
    const result = plan(updateReq(utf8(edited), receipt));
    const next = receiptOf(result);
    expect(decodeStrict(result.desired)).toBe(
      edited.replace(
        JSON.stringify(ENTRY, null, 2).replaceAll('\n', '\n      '),
        JSON.stringify(entryOf(OTHER_COMMAND), null, 2).replaceAll('\n', '\n      '),
      ),
    );
    expect(next.remainderDigest).not.toBe(receipt.remainderDigest);
    expect(receiptOf(plan(repairReq(result.desired, next))).toJSON()).toEqual(next.toJSON());
  });

  it('is a byte no-op for the same spec that refreshes the remainder digest after a foreign edit, or the host keeps a receipt Repair will refuse', () => {
    const { document, receipt } = installed(BASE);
    const edited = utf8(decodeStrict(document).replace('"fmt"', '"fmt --all"'));
    const result = plan(updateReq(edited, receipt, SPEC));
    const next = receiptOf(result);
    expect(result.noOp).toBe(true);
    expect([...result.desired]).toEqual([...edited]);
    expect(next.entryDigest).toBe(receipt.entryDigest);
    expect(next.remainderDigest).not.toBe(receipt.remainderDigest);
    // The refreshed receipt proves the current remainder; the stale one does not.
    expect(plan(repairReq(edited, next)).error).toBeUndefined();
    refused(repairReq(edited, receipt), 'remainder-drift', 'absence');
  });

  it('names the request shell after a same-entry Update through the Darwin contract, or the receipt misstates the shell', () => {
    const { document, receipt } = installed(BASE);
    const result = plan(
      req(Operation.Update, document, {
        ...WRITE,
        shell: DarwinUserShell20260918,
        previous: receipt,
      }),
    );
    expect(result.noOp).toBe(true);
    expect(receiptOf(result).shell).toBe(DarwinUserShell20260918);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
  ])(
    'refuses without a receipt (%s) with receipt-required, or Update adopts whatever matches',
    (_name, previous) => {
      const { document } = installed(BASE);
      refused(
        req(Operation.Update, document, { ...WRITE, previous }),
        'receipt-required',
        'conflict',
      );
    },
  );

  it.each([
    ['no specs', undefined, 'spec-count'],
    ['null specs', null, 'spec-count'],
    ['an empty list', [], 'spec-count'],
    ['two specs', [SPEC, OTHER_SPEC], 'spec-count'],
    ['a string', 'specs', 'spec-malformed'],
    ['a spec missing its selector', [{ executable: SPEC.executable }], 'spec-malformed'],
    ['a spec with an extra key', [{ ...SPEC, name: 'x' }], 'spec-malformed'],
    ['a spec with a number', [{ executable: 1, selector: SPEC.selector }], 'spec-malformed'],
    [
      'a spec with a number selector',
      [{ executable: SPEC.executable, selector: 1 }],
      'spec-malformed',
    ],
    ['a null spec', [null], 'spec-malformed'],
    ['a string spec', ['spec'], 'spec-malformed'],
    ['a spec as an array', [[SPEC.executable, SPEC.selector]], 'spec-malformed'],
  ] as const)(
    'refuses %s with %s, or Update writes an entry from an unchecked spec',
    (_name, specs, reason) => {
      const { document, receipt } = installed(BASE);
      refused(
        req(Operation.Update, document, { ...WRITE, specs, previous: receipt }),
        reason,
        'conflict',
      );
    },
  );

  it.each([
    ['an unknown id', 'posix', 'shell-unsupported'],
    ['WindowsUnqualified', WindowsUnqualified, 'shell-unsupported'],
    ['a missing shell', undefined, 'shell-unsupported'],
    ['Windows with POSIX paths', WindowsPowerShellStop20261001, 'path-forward-slash'],
  ] as const)(
    'refuses %s as Unsupported (%s), or an unqualified grammar renders the command',
    (_name, shell, reason) => {
      const { document, receipt } = installed(BASE);
      refused(
        req(Operation.Update, document, { ...WRITE, previous: receipt, shell }),
        reason,
        'unsupported',
      );
    },
  );

  it('keeps the old command free check out of the owner position: updating to the same command is not a collision, or no-op updates are refused', () => {
    const document = bytes({ version: 1, hooks: { stop: [ENTRY] } });
    const { receipt } = installed({ version: 1 });
    const result = plan(updateReq(document, receipt, SPEC));
    expect(receiptOf(result).entryDigest).toBe(receipt.entryDigest);
    expect(result.noOp).toBe(true);
  });
});
