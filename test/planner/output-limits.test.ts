import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES, MAX_NODES, plan } from '../../src/index.js';
import { SPEC_MAX_BYTES, SPEC_MAX_NODES, utf8 } from '../support/common.js';
import {
  ENTRY,
  expectBytes,
  expectOk,
  installReq,
  OTHER_COMMAND,
  receiptOf,
  refused,
  removeReq,
  repairReq,
  updateReq,
} from './support.js';

/** SPEC §3 node count: every container, every object key and every scalar. */
function nodes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + nodes(item), 1);
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).reduce((sum: number, item) => sum + 1 + nodes(item), 1);
  }
  return 1;
}

type Shape = (pad: unknown) => Record<string, unknown>;

/** Where the entry goes: an existing stop, a stop to create, or hooks and stop to create. */
const SHAPES: readonly (readonly [string, Shape, number])[] = [
  ['an existing stop', (pad) => ({ version: 1, hooks: { stop: [] }, pad }), 9],
  ['a created stop', (pad) => ({ version: 1, hooks: {}, pad }), 11],
  ['created hooks and stop', (pad) => ({ version: 1, pad }), 13],
];

/**
 * `value` with the owned entry appended to hooks.stop, where compact install puts it. Spreading
 * keeps an existing `hooks` in place and appends a created one last, like the planner.
 */
function withEntry(
  value: Record<string, unknown>,
  entry: unknown = ENTRY,
): Record<string, unknown> {
  const hooks = (value.hooks ?? {}) as Record<string, unknown[]>;
  return { ...value, hooks: { ...hooks, stop: [...(hooks.stop ?? []), entry] } };
}

/** Pad elements: the last node of the output is then a bare scalar or a string. */
const FILLERS: readonly (readonly [string, unknown])[] = [
  ['numbers', 0],
  ['strings', ''],
];

describe('Output limits', () => {
  it('uses the SPEC limits, or a changed constant moves every boundary below', () => {
    expect(MAX_DOCUMENT_BYTES).toBe(SPEC_MAX_BYTES);
    expect(MAX_NODES).toBe(SPEC_MAX_NODES);
    expect(nodes(ENTRY)).toBe(9);
  });

  it.each(SHAPES)(
    'accepts an install into %s whose output is exactly 4,194,304 bytes and refuses one byte more with output-too-large, or the output size limit is off by one or unchecked',
    (_name, shape) => {
      const overhead = JSON.stringify(withEntry(shape(''))).length;
      const exact = shape('a'.repeat(SPEC_MAX_BYTES - overhead));
      const result = expectOk(plan(installReq(utf8(JSON.stringify(exact)))));
      expect(result.desired.length).toBe(SPEC_MAX_BYTES);
      expect(new TextDecoder().decode(result.desired)).toBe(JSON.stringify(withEntry(exact)));

      const over = utf8(JSON.stringify(shape('a'.repeat(SPEC_MAX_BYTES - overhead + 1))));
      expect(over.length).toBeLessThan(SPEC_MAX_BYTES);
      refused(installReq(over), 'output-too-large', 'unsupported');
    },
  );

  it.each(
    SHAPES.flatMap(([name, shape, added]) =>
      FILLERS.map(([filler, value]) => [name, filler, shape, added, value] as const),
    ),
  )(
    'accepts an install into %s padded with %s whose output has exactly 65,536 nodes and refuses one node more with output-too-many-nodes, or the entry and created containers are not counted',
    (_name, _filler, shape, added, value) => {
      const base = nodes(withEntry(shape([])));
      expect(base - nodes(shape([]))).toBe(added);
      const exact = shape(new Array(SPEC_MAX_NODES - base).fill(value));
      expect(nodes(withEntry(exact))).toBe(SPEC_MAX_NODES);
      const result = expectOk(plan(installReq(utf8(JSON.stringify(exact)))));
      expect(new TextDecoder().decode(result.desired)).toBe(JSON.stringify(withEntry(exact)));

      const over = shape(new Array(SPEC_MAX_NODES - base + 1).fill(value));
      expect(nodes(over)).toBeLessThanOrEqual(SPEC_MAX_NODES);
      refused(installReq(utf8(JSON.stringify(over))), 'output-too-many-nodes', 'unsupported');
    },
  );

  it('refuses an Update whose longer command would push an exactly-full document over 4 MiB, and Repair restores the exact boundary, or Update and Repair skip the output check or over-refuse', () => {
    const shape: Shape = (pad) => ({ version: 1, hooks: { stop: [] }, pad });
    const overhead = JSON.stringify(withEntry(shape(''))).length;
    const full = plan(
      installReq(utf8(JSON.stringify(shape('a'.repeat(SPEC_MAX_BYTES - overhead))))),
    );
    const receipt = receiptOf(full);
    expect(full.desired.length).toBe(SPEC_MAX_BYTES);
    expect(OTHER_COMMAND.length).toBeGreaterThan(ENTRY.command.length);
    refused(updateReq(full.desired, receipt), 'output-too-large', 'unsupported');

    const removed = expectOk(plan(removeReq(full.desired, receipt)));
    const repaired = expectOk(plan(repairReq(removed.desired, receipt)));
    expect(repaired.desired.length).toBe(SPEC_MAX_BYTES);
    expectBytes(repaired.desired, full.desired);
  });
});
