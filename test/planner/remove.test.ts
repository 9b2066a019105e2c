import { describe, expect, it } from 'vitest';
import { Operation, plan } from '../../src/index.js';
import { decodeStrict, utf8 } from '../support/common.js';
import {
  bytes,
  ENTRY,
  expectOk,
  installed,
  newFile,
  refused,
  removeReq,
  req,
  SPEC,
} from './support.js';

/** A foreign entry that looks like ours but is not the owned command. */
const ENTRY_LIKE = { ...ENTRY, command: `${ENTRY.command} --foreign` };

describe('Remove', () => {
  it('leaves "stop": [] and the hooks object in place after removing the sole entry, or empty containers are deleted', () => {
    const { document, receipt } = installed({ version: 1 });
    const result = expectOk(plan(removeReq(document, receipt)));
    expect(decodeStrict(result.desired)).toBe(newFile({ version: 1, hooks: { stop: [] } }));
    expect(result.receipt).toBeUndefined();
    expect(result.noOp).toBe(false);
  });

  it('leaves "hooks": {} when that is what install created stop into, minus the entry, or Remove reshapes hooks', () => {
    const { document, receipt } = installed(utf8('{"version":1,"hooks":{}}'));
    expect(decodeStrict(document)).toBe(
      `{"version":1,"hooks":{"stop":[${JSON.stringify(ENTRY)}]}}`,
    );
    expect(decodeStrict(expectOk(plan(removeReq(document, receipt))).desired)).toBe(
      '{"version":1,"hooks":{"stop":[]}}',
    );
  });

  it.each([
    ['first', [ENTRY, { command: 'a' }, { command: 'b' }]],
    ['middle', [{ command: 'a' }, ENTRY, { command: 'b' }]],
    ['last', [{ command: 'a' }, { command: 'b' }, ENTRY]],
  ])(
    'removes only the owner when it is %s in stop, with exactly one separator, or neighbours are damaged',
    (_name, stop) => {
      const { receipt } = installed({ version: 1 });
      const doc = { version: 1, hooks: { afterFileEdit: [ENTRY_LIKE], stop } };
      const expected = { ...doc, hooks: { ...doc.hooks, stop: stop.filter((e) => e !== ENTRY) } };
      for (const indent of [0, 2, '\t']) {
        const result = expectOk(plan(removeReq(bytes(doc, indent), receipt)));
        expect(decodeStrict(result.desired)).toBe(`${JSON.stringify(expected, null, indent)}\n`);
      }
    },
  );

  it('refuses a second Remove with the old receipt as owner-absent (AbsenceUnproven), or a repeated removal reports success', () => {
    const { document, receipt } = installed({ version: 1 });
    const once = expectOk(plan(removeReq(document, receipt)));
    refused(removeReq(once.desired, receipt), 'owner-absent', 'absence');
  });

  it('ignores specs, shell and executableVerified, or a host cannot remove its entry after its executable is gone', () => {
    const { document, receipt } = installed({ version: 1 });
    const result = plan(
      req(Operation.Remove, document, {
        previous: receipt,
        specs: 'garbage',
        shell: 42,
        executableVerified: 'no',
      }),
    );
    expect(decodeStrict(expectOk(result).desired)).toBe(
      newFile({ version: 1, hooks: { stop: [] } }),
    );
  });

  it('is not revoked by legitimate foreign edits, which survive the removal, or foreign edits block uninstall', () => {
    const { document, receipt } = installed({ version: 1, hooks: { stop: [] } });
    const edited = decodeStrict(document).replace(
      '"version": 1,',
      '"version": 1,\n  "foreign": [1e400, "\\/"],',
    );
    const result = expectOk(plan(removeReq(utf8(edited), receipt)));
    expect(decodeStrict(result.desired)).toBe(
      '{\n  "version": 1,\n  "foreign": [1e400, "\\/"],\n  "hooks": {\n    "stop": []\n  }\n}\n',
    );
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
  ])(
    'refuses without a receipt (%s) with receipt-required, or Remove deletes whatever matches the spec',
    (_name, previous) => {
      const { document } = installed({ version: 1 });
      refused(
        req(Operation.Remove, document, { previous, specs: [SPEC], executableVerified: true }),
        'receipt-required',
        'conflict',
      );
    },
  );
});
