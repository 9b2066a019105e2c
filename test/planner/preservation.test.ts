import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { type PlanRequest, type PlanResult, plan, verifyOwned } from '../../src/index.js';
import { decodeStrict, SPEC_MAX_BYTES, utf8 } from '../support/common.js';
import {
  ENTRY,
  entryOf,
  expectOk,
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
  req,
  updateReq,
} from './support.js';

/**
 * The owned entry on one line with `": "` and `", "`, as the foreign entries below are written:
 * new entries copy their neighbours' layout (issue 10).
 */
function oneLine(entry: object): string {
  const members = Object.entries(entry).map(
    ([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`,
  );
  return `{${members.join(', ')}}`;
}

// Lexemes no float round trip keeps, escapes a decoder would normalise, and both Unicode forms.
const FOREIGN_HEAD = [
  '{',
  '  "version": 1,',
  '  "big": 1.234567890123456789e+200,',
  '  "huge": 90071992547409931234567890,',
  '  "zero": -0,',
  '  "inf": 1e400,',
  '  "lone": "\\ud800",',
  '  "upper": "\\uD83D\\uDE00",',
  '  "cjk": "\\u4e2d",',
  '  "slash": "\\/",',
  '  "nfc": "\u00e9",',
  '  "nfd": "e\u0301",',
  '  "emoji": "\u{1F600}",',
  '  "hooks": {',
  '    "beforeShellExecution": [{"command": "\\u0065cho", "timeout": 1E400}],',
].join('\n');
const FOREIGN_TAIL = ['  },', '  "z": {"b": 1, "a": [true, null, 0.10]}', '}', ''].join('\n');

function foreignDoc(stop: string): string {
  return `${FOREIGN_HEAD}\n    "stop": ${stop}\n${FOREIGN_TAIL}`;
}

describe('Preservation', () => {
  it.each([
    // An empty stop takes the form of its nearest filled sibling, `[{…}]`.
    ['an empty stop', '[]', (entry: string) => `[${entry}]`],
    [
      'a stop with a foreign entry',
      '[\n      {"command": "\\u00e9", "n": -0.0}\n    ]',
      (entry: string) => `[\n      {"command": "\\u00e9", "n": -0.0},\n      ${entry}\n    ]`,
    ],
  ])(
    'keeps foreign lexemes, escapes, Unicode forms and order byte for byte through install, update and remove with %s, or the planner re-serialises foreign values',
    (_name, stop, withEntry) => {
      const original = foreignDoc(stop);
      const install = plan(installReq(utf8(original)));
      const issued = receiptOf(install);
      expect(decodeStrict(install.desired)).toBe(foreignDoc(withEntry(oneLine(ENTRY))));
      const update = plan(updateReq(install.desired, issued));
      expect(decodeStrict(expectOk(update).desired)).toBe(
        foreignDoc(withEntry(oneLine(entryOf(OTHER_COMMAND)))),
      );
      const remove = expectOk(plan(removeReq(update.desired, receiptOf(update))));
      expect(decodeStrict(remove.desired)).toBe(original);
      expect([...remove.desired]).toEqual([...utf8(original)]);
    },
  );

  it('never writes to the input array, in successes, no-ops and refusals of every operation, or hosts see their buffer change under them', () => {
    const { document, receipt } = installed({ version: 1, hooks: { stop: [{ command: 'a' }] } });
    const snapshot = Uint8Array.from(document);
    const requests: PlanRequest[] = [
      installReq(document),
      ...ownerRequests(document, receipt).map(([, request]) => request),
      updateReq(document, receipt, OTHER_SPEC),
      req('unknown', document),
    ];
    for (const request of requests) {
      const result = plan(request);
      expect([...document]).toEqual([...snapshot]);
      // Writing to the result must not reach the input either.
      result.desired.fill(0x20);
      expect([...document]).toEqual([...snapshot]);
    }
    verifyOwned(document, receipt);
    expect([...document]).toEqual([...snapshot]);
  });

  it('returns equal bytes in fresh memory on no-op and refusal, or a host writing the result back corrupts or aliases its input', () => {
    const { document, receipt } = installed({ version: 1 });
    const results: PlanResult[] = [
      plan(installReq(document, receipt)),
      plan(updateReq(document, receipt, { ...receipt.spec })),
      plan(repairReq(document, receipt)),
      plan(installReq(document)),
      plan(req('unknown', document)),
    ];
    for (const result of results) {
      expect(result.noOp).toBe(true);
      expect([...result.desired]).toEqual([...document]);
      expect(result.desired.buffer).not.toBe(document.buffer);
    }
  });

  it('returns results that own exactly their ArrayBuffer, or `desired.buffer` exposes pooled memory of other buffers', () => {
    const { document, receipt } = installed({ version: 1, hooks: { stop: [] } });
    const results: PlanResult[] = [
      plan(installReq(undefined)),
      plan(installReq(utf8('{"version":1}'))),
      plan(installReq(document, receipt)),
      plan(updateReq(document, receipt, OTHER_SPEC)),
      plan(removeReq(document, receipt)),
      plan(installReq(document)),
    ];
    for (const result of results) {
      expect(result.desired.length).toBeGreaterThan(0);
      expect(result.desired.byteOffset).toBe(0);
      expect(result.desired.buffer.byteLength).toBe(result.desired.length);
    }
  });

  it('gives fresh memory for results even when the input is a view into a larger buffer, and reads only the view, or bytes outside the view leak into the output', () => {
    const doc = utf8('{"version":1}');
    const backing = new Uint8Array(doc.length + 8).fill(0x7b);
    backing.set(doc, 4);
    const view = backing.subarray(4, 4 + doc.length);
    const result = expectOk(plan(installReq(view)));
    expect(decodeStrict(result.desired)).toBe(
      `{"version":1,"hooks":{"stop":[${JSON.stringify(ENTRY)}]}}`,
    );
    expect(result.desired.buffer).not.toBe(backing.buffer);
    const noop = plan(installReq(result.desired, receiptOf(result)));
    expect(noop.desired.buffer).not.toBe(result.desired.buffer);
  });

  it('accepts a Node Buffer and a SharedArrayBuffer-backed document, returning unshared bytes, or host buffer types are refused or aliased', () => {
    const source = '{"version":1}';
    const shared = new Uint8Array(new SharedArrayBuffer(source.length));
    shared.set(utf8(source));
    for (const document of [Buffer.from(source), shared]) {
      const result = expectOk(plan(installReq(document)));
      expect(result.desired.buffer).not.toBe(document.buffer);
      expect(result.desired.buffer).not.toBeInstanceOf(SharedArrayBuffer);
      const refusal = plan(req('unknown', document));
      expect(refusal.desired.buffer).not.toBe(document.buffer);
      expect([...refusal.desired]).toEqual([...document]);
    }
  });

  it('returns the very same Uint8Array for an oversized document from every operation, or a 4 MiB refusal costs an oversized copy', () => {
    const { receipt } = installed({ version: 1 });
    const head = '{"version":1,"p":"';
    const oversized = new Uint8Array(SPEC_MAX_BYTES + 1).fill(0x61);
    oversized.set(utf8(head), 0);
    oversized.set(utf8('"}'), oversized.length - 2);
    const requests: PlanRequest[] = [
      installReq(oversized),
      ...ownerRequests(oversized, receipt).map(([, request]) => request),
      req('unknown', oversized),
    ];
    for (const request of requests) {
      const result = plan(request);
      expect(result.desired).toBe(oversized);
      expect(result.conflict).toBe(true);
    }
    refused(installReq(oversized), 'document-too-large', 'unsupported');
    expectVerifyRefused(oversized, receipt, 'document-too-large', 'unsupported');
  });

  const layouts: readonly (readonly [string, number | string, string, boolean])[] = [
    ['compact', 0, '', false],
    ['compact with a newline', 0, '\n', false],
    ['compact with CRLF', 0, '\r\n', true],
    ['indent 2', 2, '\n', false],
    ['indent 2 without newline', 2, '', false],
    ['indent 4', 4, '\n', false],
    ['tabs', '\t', '\n', false],
    ['indent 2 with CRLF', 2, '\r\n', true],
    ['tabs with CRLF', '\t', '\r\n', true],
  ];

  const values: readonly unknown[] = [
    { version: 1 },
    { version: 1, hooks: {} },
    { version: 1, hooks: { stop: [] } },
    { version: 1, hooks: { afterFileEdit: [{ command: 'x', n: [] }], stop: [{ command: 'a' }] } },
    { version: 1, list: [], obj: {}, hooks: { stop: [[], {}, 'e\u0301'] }, tail: 'end' },
  ];

  it.each(layouts)(
    'follows a %s document through install, update, remove and repair exactly as JSON.stringify would, or the output format drifts (CRLF turns into LF)',
    (_name, indent, trailing, crlf) => {
      const render = (value: unknown) => {
        const body = JSON.stringify(value, null, indent);
        return `${crlf ? body.replaceAll('\n', '\r\n') : body}${trailing}`;
      };
      for (const value of values) {
        const v = value as { hooks?: { stop?: unknown[] } & Record<string, unknown[]> };
        const withEntry = (entry: unknown) => ({
          ...v,
          hooks: { ...(v.hooks ?? {}), stop: [...(v.hooks?.stop ?? []), entry] },
        });
        const emptied = { ...v, hooks: { ...(v.hooks ?? {}), stop: [...(v.hooks?.stop ?? [])] } };

        const install = plan(installReq(utf8(render(value))));
        expect(decodeStrict(install.desired)).toBe(render(withEntry(ENTRY)));
        const update = plan(updateReq(install.desired, receiptOf(install)));
        expect(decodeStrict(expectOk(update).desired)).toBe(
          render(withEntry(entryOf(OTHER_COMMAND))),
        );
        const remove = plan(removeReq(update.desired, receiptOf(update)));
        expect(decodeStrict(expectOk(remove).desired)).toBe(render(emptied));
        const repair = plan(repairReq(remove.desired, receiptOf(update)));
        expect(decodeStrict(expectOk(repair).desired)).toBe(
          render(withEntry(entryOf(OTHER_COMMAND))),
        );
      }
    },
  );
});
