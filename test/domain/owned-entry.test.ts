import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OwnedEntry } from '../../src/domain/owned-entry.js';
import { digestOf } from '../../src/json/digest.js';
import { parseJson } from '../../src/json/parse.js';
import type { ShellContract } from '../../src/shell/contract.js';
import { fcRuns, TEST_EVIDENCE, utf8 } from '../support/common.js';

const RUNS = fcRuns(300);

/** A contract that renders whatever command the test hands it, so any string can be digested. */
function renderingAs(command: string): ShellContract {
  return {
    id: 'test',
    evidence: TEST_EVIDENCE,
    assertCanonicalPath: () => undefined,
    render: () => command,
  };
}

const SPEC = { executable: '/opt/agent', selector: '/opt/binding.json' };

describe('OwnedEntry digest', () => {
  it('equals the digest of the same entry parsed from its JSON, or an installed entry never verifies', () => {
    const unit = fc.oneof(
      fc.constantFrom('"', '\\', '/', '\n', '\u0001', '\u007f', '\u2028', 'é', '中', '😀', "'"),
      fc.constantFrom('\ud800', '\udfff', '\ufffd', '\uffff', '\ue000'),
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    );
    fc.assert(
      fc.property(fc.string({ unit }), (command) => {
        const entry = OwnedEntry.render(SPEC, renderingAs(command));
        const parsed = parseJson(utf8(JSON.stringify(entry.value)));
        expect(entry.digest).toBe(digestOf('entry', parsed));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('OwnedEntry', () => {
  it('is frozen, or a caller can swap the digest of an entry after it was rendered', () => {
    const entry = OwnedEntry.render(SPEC, renderingAs('/opt/agent stop'));
    expect(Object.isFrozen(entry)).toBe(true);
  });
});
