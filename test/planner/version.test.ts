import { describe, expect, it } from 'vitest';
import { plan, verifyOwned } from '../../src/index.js';
import { decodeStrict, utf8 } from '../support/common.js';
import {
  ENTRY_TEXT,
  expectOk,
  expectVerifyRefused,
  installed,
  installReq,
  type Reason,
  receiptOf,
  refused,
  removeReq,
  repairReq,
  updateReq,
} from './support.js';

const { receipt } = installed({ version: 1 });

describe('Document version and hooks shape', () => {
  it.each(['1.0', '1e0', '10e-1', '1.00E+00', '0.1E1'])(
    'accepts "version": %s through the whole lifecycle and keeps its lexeme, or exact decimal spellings of 1 are refused or rewritten',
    (lexeme) => {
      const original = `{"version":${lexeme},"hooks":{"stop":[]}}`;
      const install = plan(installReq(utf8(original)));
      const issued = receiptOf(install);
      expect(decodeStrict(install.desired)).toBe(
        `{"version":${lexeme},"hooks":{"stop":[${ENTRY_TEXT}]}}`,
      );
      expect(() => verifyOwned(install.desired, issued)).not.toThrow();
      const removed = expectOk(plan(removeReq(install.desired, issued)));
      expect(decodeStrict(removed.desired)).toBe(original);
      const repaired = plan(repairReq(removed.desired, issued));
      expect(decodeStrict(expectOk(repaired).desired)).toBe(decodeStrict(install.desired));
    },
  );

  const refusals: readonly (readonly [string, string, Reason])[] = [
    ['version "1"', '{"version":"1"}', 'version-unsupported'],
    ['version 1.1', '{"version":1.1}', 'version-unsupported'],
    ['version 2', '{"version":2}', 'version-unsupported'],
    ['version 0.99999999999999999999', '{"version":0.99999999999999999999}', 'version-unsupported'],
    ['version 1.0000000000000000001', '{"version":1.0000000000000000001}', 'version-unsupported'],
    ['version true', '{"version":true}', 'version-unsupported'],
    ['version null', '{"version":null}', 'version-unsupported'],
    ['version [1]', '{"version":[1]}', 'version-unsupported'],
    ['version 1e-999999999999', '{"version":1e-999999999999}', 'version-unsupported'],
    ['a missing version', '{"hooks":{"stop":[]}}', 'version-missing'],
    ['a nested version only', '{"hooks":{"stop":[]},"meta":{"version":1}}', 'version-missing'],
    ['a root array', '[{"version":1}]', 'root-not-object'],
    ['a root string', '"version"', 'root-not-object'],
    ['a root number', '1', 'root-not-object'],
    ['hooks an array', '{"version":1,"hooks":[]}', 'hooks-not-object'],
    ['hooks null', '{"version":1,"hooks":null}', 'hooks-not-object'],
    ['hooks a string', '{"version":1,"hooks":"stop"}', 'hooks-not-object'],
    ['stop an object', '{"version":1,"hooks":{"stop":{}}}', 'event-not-array'],
    [
      'a foreign event null',
      '{"version":1,"hooks":{"stop":[],"afterFileEdit":null}}',
      'event-not-array',
    ],
    [
      'a foreign event a string',
      `{"version":1,"hooks":{"x":${JSON.stringify(ENTRY_TEXT)}}}`,
      'event-not-array',
    ],
  ];

  it.each(refusals)(
    'refuses %s as Unsupported in every operation and verifyOwned, or a document outside the grammar is edited',
    (_name, doc, reason) => {
      const document = utf8(doc);
      refused(installReq(document), reason, 'unsupported', 'install');
      refused(installReq(document, receipt), reason, 'unsupported', 'install+receipt');
      refused(updateReq(document, receipt), reason, 'unsupported', 'update');
      refused(removeReq(document, receipt), reason, 'unsupported', 'remove');
      refused(repairReq(document, receipt), reason, 'unsupported', 'repair');
      expectVerifyRefused(document, receipt, reason, 'unsupported');
    },
  );

  it('refuses "\\u0076ersion" duplicated with "version" as json-duplicate-key, or escaped keys bypass duplicate detection', () => {
    refused(
      installReq(utf8('{"version":1,"\\u0076ersion":2}')),
      'json-duplicate-key',
      'unsupported',
    );
  });

  it('accepts the version written as "\\u0076ersion", or keys are compared by spelling', () => {
    const result = expectOk(plan(installReq(utf8('{"\\u0076ersion":1}'))));
    expect(decodeStrict(result.desired)).toBe(
      `{"\\u0076ersion":1,"hooks":{"stop":[${ENTRY_TEXT}]}}`,
    );
  });
});
