import { describe, expect, it } from 'vitest';
import { Operation, plan, verifyOwned } from '../../src/index.js';
import { decodeStrict, utf8 } from '../support/common.js';
import {
  COMMAND,
  docText,
  ENTRY_TEXT,
  entryOf,
  expectOk,
  expectOwnerRefused,
  expectVerifyRefused,
  installed,
  installReq,
  OTHER_COMMAND,
  OTHER_SPEC,
  ownerRequests,
  receiptOf,
  refused,
  removeReq,
  repairReq,
  updateReq,
} from './support.js';

const C = JSON.stringify(COMMAND);
const FOREIGN_EVENT = '"afterFileEdit":[{"command":"fmt","timeout":1e400}]';

/** The receipt of an install into a document whose only foreign part is FOREIGN_EVENT. */
const { receipt } = installed(utf8(docText([], FOREIGN_EVENT)));

/** The document with `entry` as the only stop element, beside the same foreign event. */
function withEntry(entry: string): Uint8Array {
  return utf8(docText([entry], FOREIGN_EVENT));
}

describe('VerifyOwned and the owner checks of every receipted operation', () => {
  it('verifies the installed document and a document edited only elsewhere, or legitimate foreign edits revoke ownership', () => {
    expect(() => verifyOwned(withEntry(ENTRY_TEXT), receipt)).not.toThrow();
    const edited = utf8(
      docText(
        ['{"command":"x"}', ENTRY_TEXT, '[]'],
        `${FOREIGN_EVENT},"beforeShellExecution":[{"command":"y"}]`,
        '"note":"foreign","n":-0',
      ),
    );
    expect(() => verifyOwned(edited, receipt)).not.toThrow();
    expect(() => verifyOwned(edited, receipt.toJSON())).not.toThrow();
  });

  // Full-entry drift: every field participates in the entry digest.
  const drifts: readonly (readonly [string, string])[] = [
    ['timeout 5000', `{"type":"command","command":${C},"timeout":5000,"failClosed":false}`],
    ['timeout 5.0', `{"type":"command","command":${C},"timeout":5.0,"failClosed":false}`],
    ['timeout 5e0', `{"type":"command","command":${C},"timeout":5e0,"failClosed":false}`],
    ['timeout "5"', `{"type":"command","command":${C},"timeout":"5","failClosed":false}`],
    ['failClosed true', `{"type":"command","command":${C},"timeout":5,"failClosed":true}`],
    ['type changed', `{"type":"prompt","command":${C},"timeout":5,"failClosed":false}`],
    ['type missing', `{"command":${C},"timeout":5,"failClosed":false}`],
    ['failClosed missing', `{"type":"command","command":${C},"timeout":5}`],
    [
      'an unknown field 1e400',
      `{"type":"command","command":${C},"timeout":5,"failClosed":false,"x":1e400}`,
    ],
    [
      'an unknown lone-surrogate field',
      `{"type":"command","command":${C},"timeout":5,"failClosed":false,"x":"\\ud800"}`,
    ],
    [
      'loop_limit: null',
      `{"type":"command","command":${C},"timeout":5,"failClosed":false,"loop_limit":null}`,
    ],
    [
      'matcher added',
      `{"type":"command","matcher":"*","command":${C},"timeout":5,"failClosed":false}`,
    ],
    ['env added', `{"type":"command","command":${C},"timeout":5,"failClosed":false,"env":{}}`],
    [
      'env with a value',
      `{"type":"command","command":${C},"timeout":5,"failClosed":false,"env":{"A":"1"}}`,
    ],
  ];

  it.each(drifts)(
    'refuses %s with owner-modified in Install+receipt, Update, Remove, Repair and verifyOwned, or a drifted entry is overwritten, deleted or reinstalled',
    (_name, entry) => {
      expectOwnerRefused(withEntry(entry), receipt, 'owner-modified', 'conflict');
    },
  );

  it('treats an edited path inside the command as the owner gone (owner-absent, and remainder-drift for Repair) without writing, or a changed command becomes a deletion or a reinstall', () => {
    const edited = withEntry(ENTRY_TEXT.replace('agent bin', 'agent bon'));
    expectOwnerRefused(edited, receipt, 'owner-absent', 'absence', { skip: ['repair'] });
    refused(repairReq(edited, receipt), 'remainder-drift', 'absence', 'repair');
  });

  const duplicates: readonly (readonly [string, string, string])[] = [
    ['two identical copies in stop', docText([ENTRY_TEXT, ENTRY_TEXT], FOREIGN_EVENT), ''],
    [
      'a full copy in a second event',
      docText([ENTRY_TEXT], `${FOREIGN_EVENT},"beforeShellExecution":[${ENTRY_TEXT}]`),
      '',
    ],
    [
      'a bare {command} copy in a future event',
      docText([ENTRY_TEXT], `${FOREIGN_EVENT},"x-future":[7,{"command":${C}}]`),
      '',
    ],
    [
      'a copy in stop with other fields',
      docText([`{"command":${C},"matcher":"*"}`, ENTRY_TEXT], FOREIGN_EVENT),
      '',
    ],
  ];

  it.each(duplicates)(
    'refuses %s with owner-duplicated in every operation and verifyOwned, or one of two copies is taken for the owner',
    (_name, doc) => {
      expectOwnerRefused(utf8(doc), receipt, 'owner-duplicated', 'conflict');
    },
  );

  it.each([
    ['afterFileEdit', `{"version":1,"hooks":{"afterFileEdit":[${ENTRY_TEXT}],"stop":[]}}`],
    ['a future event, stop absent', `{"version":1,"hooks":{"x-future":[${ENTRY_TEXT}]}}`],
  ])(
    'refuses an owner moved to %s with owner-outside-stop, or an entry in another event is managed as ours',
    (_name, doc) => {
      expectOwnerRefused(utf8(doc), receipt, 'owner-outside-stop', 'conflict');
    },
  );

  const equivalents: readonly (readonly [string, string])[] = [
    ['reordered keys', `{"failClosed":false,"timeout":5,"command":${C},"type":"command"}`],
    [
      'whitespace inside the entry',
      `{ "type" :\t"command" ,\r\n  "command" : ${C} ,"timeout":5 , "failClosed":false }`,
    ],
    [
      'equivalent escapes in keys and values',
      `{"\\u0074ype":"comm\\u0061nd","command":${C.replaceAll('/', '\\/').replaceAll("'", '\\u0027')},"timeout":5,"f\\u0061ilClosed":false}`,
    ],
  ];

  it.each(equivalents)(
    'verifies an owner written with %s and lets every operation act on it, or a cosmetic rewrite revokes ownership',
    (_name, entry) => {
      const document = withEntry(entry);
      expect(() => verifyOwned(document, receipt)).not.toThrow();
      for (const [name, request] of ownerRequests(document, receipt)) {
        expectOk(plan(request), name);
      }
    },
  );

  it('finds the owner under an escaped "\\u0073top" key, or event names are compared by their raw spelling', () => {
    const document = utf8(`{"version":1,"hooks":{${FOREIGN_EVENT},"\\u0073top":[${ENTRY_TEXT}]}}`);
    expect(() => verifyOwned(document, receipt)).not.toThrow();
    const repaired = plan(repairReq(document, receipt));
    expect(receiptOf(repaired).toJSON()).toEqual(receipt.toJSON());
    expect(repaired.noOp).toBe(true);
    const removed = expectOk(plan(removeReq(document, receipt)));
    expect(decodeStrict(removed.desired)).toBe(
      `{"version":1,"hooks":{${FOREIGN_EVENT},"\\u0073top":[]}}`,
    );
  });

  it('verifies an owner moved inside stop and lets Update replace it at its new position, or position is used as identity', () => {
    const moved = withEntryList([ENTRY_TEXT, '{"command":"a"}', '{"command":"b"}']);
    expect(() => verifyOwned(moved, receipt)).not.toThrow();
    const updated = expectOk(plan(updateReq(moved, receipt)));
    const other = JSON.stringify(entryOf(OTHER_COMMAND));
    expect(decodeStrict(updated.desired)).toBe(
      docText([other, '{"command":"a"}', '{"command":"b"}'], FOREIGN_EVENT),
    );
    const removed = expectOk(plan(removeReq(moved, receipt)));
    expect(decodeStrict(removed.desired)).toBe(
      docText(['{"command":"a"}', '{"command":"b"}'], FOREIGN_EVENT),
    );
    const middle = withEntryList(['{"command":"a"}', ENTRY_TEXT, '{"command":"b"}']);
    expect(decodeStrict(expectOk(plan(updateReq(middle, receipt))).desired)).toBe(
      docText(['{"command":"a"}', other, '{"command":"b"}'], FOREIGN_EVENT),
    );
  });

  it('refuses an absent owner with owner-absent in verifyOwned, Install+receipt, Update and Remove, or absence is taken as proof of removal', () => {
    const gone = withEntryList(['{"command":"a"}']);
    expectOwnerRefused(gone, receipt, 'owner-absent', 'absence', { skip: ['repair'] });
    expectVerifyRefused(new Uint8Array(0), receipt, 'owner-absent', 'absence');
  });

  it('refuses documents outside the grammar in verifyOwned as Unsupported, or a malformed file is reported as ours', () => {
    expectVerifyRefused(utf8('{"version":2}'), receipt, 'version-unsupported', 'unsupported');
    expectVerifyRefused(utf8('{"version":1,'), receipt, 'json-syntax', 'unsupported');
    expectVerifyRefused(
      utf8('{"version":1,"hooks":{"stop":{}}}'),
      receipt,
      'event-not-array',
      'unsupported',
    );
  });

  it('verifies each of two installed specs with its own receipt and refuses a receipt whose entry is absent, or any receipt verifies any entry', () => {
    const other = installed(withEntry(ENTRY_TEXT), OTHER_SPEC);
    expect(() => verifyOwned(other.document, other.receipt)).not.toThrow();
    expect(() => verifyOwned(other.document, receipt)).not.toThrow();
    expectVerifyRefused(withEntry(ENTRY_TEXT), other.receipt, 'owner-absent', 'absence');
  });

  it('refuses Install+receipt, Update and Remove on the absent file with owner-absent, or an absent file is read as a removal', () => {
    for (const [name, request] of ownerRequests(undefined, receipt)) {
      if (name === 'repair') continue;
      refused(request, 'owner-absent', 'absence', name);
    }
    refused(
      { ...installReq(undefined, receipt), operation: Operation.Update },
      'owner-absent',
      'absence',
    );
  });
});

function withEntryList(entries: readonly string[]): Uint8Array {
  return utf8(docText(entries, FOREIGN_EVENT));
}
