// Refusals of the document carry where they are (issue 20): byte offset, line and column,
// through plan's ConflictError and its UnsupportedError cause alike.

import { describe, expect, it } from 'vitest';
import {
  asConflict,
  CursorHooksError,
  type DocumentPosition,
  UnsupportedError,
} from '../../src/errors/errors.js';
import { type ErrorReason, messageFor } from '../../src/errors/reasons.js';
import { plan } from '../../src/index.js';
import { installReq } from '../planner/support.js';
import { bytesOf, SPEC_MAX_NODES, utf8 } from '../support/common.js';

type Row = readonly [
  name: string,
  document: string | Uint8Array,
  reason: ErrorReason,
  at: DocumentPosition | undefined,
];

const deep = (levels: number) => `{"version":1,"x":${'['.repeat(levels)}${']'.repeat(levels)}}`;

// Each row's red condition: the refusal has no position, or one off by a byte, a line or a
// column (CRLF counted as two lines, bytes counted for code points, the wrong key repeated).
const ROWS: readonly Row[] = [
  ['the first byte', ']', 'json-syntax', { offset: 0, line: 1, column: 1 }],
  [
    'a byte-order mark',
    bytesOf([0xef, 0xbb, 0xbf], '{}'),
    'document-bom',
    { offset: 0, line: 1, column: 1 },
  ],
  [
    'the middle of a line',
    '{"version":1, "a": tru }',
    'json-syntax',
    { offset: 22, line: 1, column: 23 },
  ],
  ['a missing colon', '{"version" 1}', 'json-syntax', { offset: 11, line: 1, column: 12 }],
  [
    'a trailing comma after CRLF lines, at the comma',
    '{\r\n  "version": 1,\r\n  "a": [1, ]\r\n}',
    'json-syntax',
    { offset: 29, line: 3, column: 10 },
  ],
  [
    'a trailing comma before the brace on the next line',
    '{\n  "version": 1,\n}',
    'json-syntax',
    { offset: 16, line: 2, column: 15 },
  ],
  [
    'a lone CR as a line end',
    '{\r"version": 1,\r"a": x}',
    'json-syntax',
    { offset: 21, line: 3, column: 6 },
  ],
  [
    'after multi-byte characters on the same line',
    '{"version":1,"é😀中":"ü" "b":1}',
    'json-syntax',
    { offset: 30, line: 1, column: 24 },
  ],
  ['the last byte', '{"version":1}}', 'json-syntax', { offset: 13, line: 1, column: 14 }],
  [
    'a document ending early, at its length',
    '{"version":1,\n"a":[',
    'json-syntax',
    { offset: 19, line: 2, column: 6 },
  ],
  [
    'a raw control character in a string',
    '{"version":1,\n  "a":"x\ty"}',
    'json-syntax',
    { offset: 22, line: 2, column: 9 },
  ],
  [
    'a raw line feed in a string, on the line it ends',
    '{"version":1,"a":"x\ny"}',
    'json-syntax',
    { offset: 19, line: 1, column: 20 },
  ],
  [
    'a bad escape, at its marker',
    '{"version":1,"a":"\\x"}',
    'json-syntax',
    { offset: 19, line: 1, column: 20 },
  ],
  [
    'a short \\u escape, at its first non-hex digit',
    '{"version":1,"a":"\\u12g4"}',
    'json-syntax',
    { offset: 22, line: 1, column: 23 },
  ],
  [
    'a leading zero, at the digit after it',
    '{"version":1,"a":01}',
    'json-syntax',
    { offset: 18, line: 1, column: 19 },
  ],
  ['a lone minus', '{"version":1,"a":-}', 'json-syntax', { offset: 18, line: 1, column: 19 }],
  [
    'trailing data after the root',
    '{"version":1}\n\n  x',
    'json-syntax',
    { offset: 17, line: 3, column: 3 },
  ],
  [
    'a duplicate key deep in the tree, at its second occurrence',
    '{"version":1,"hooks":{"stop":[{"a":{"k":1,\n   "\\u006b":2}}]}}',
    'json-duplicate-key',
    { offset: 46, line: 2, column: 4 },
  ],
  [
    'the first repeated key of several',
    '{"b":1,"a":1,"version":1,"a":2,"b":2}',
    'json-duplicate-key',
    { offset: 25, line: 1, column: 26 },
  ],
  [
    'an invalid UTF-8 byte after a multi-byte character',
    bytesOf('{"version":1,\n"é":"', [0xff], '"}'),
    'document-not-utf8',
    { offset: 20, line: 2, column: 6 },
  ],
  [
    'a truncated sequence at the end, at its lead byte',
    bytesOf('{"version":1}', [0xe2, 0x82]),
    'document-not-utf8',
    { offset: 13, line: 1, column: 14 },
  ],
  [
    'a surrogate code point, at its lead byte',
    bytesOf('{"version":1,"a":"x', [0xed, 0xa0, 0x80], '"}'),
    'document-not-utf8',
    { offset: 19, line: 1, column: 20 },
  ],
  [
    'an unsupported version value',
    '{\n  "version": "1"\n}',
    'version-unsupported',
    { offset: 15, line: 2, column: 14 },
  ],
  [
    'hooks that are not an object',
    '{"version":1,"hooks":[]}',
    'hooks-not-object',
    { offset: 21, line: 1, column: 22 },
  ],
  [
    'an event that is not an array',
    '{"version":1,"hooks":{"stop":[],"beforeX":{}}}',
    'event-not-array',
    { offset: 42, line: 1, column: 43 },
  ],
  ['a root that is not an object', ' [1]', 'root-not-object', { offset: 1, line: 1, column: 2 }],
  [
    'nesting past the depth limit, at the first bracket too deep',
    deep(64),
    'document-too-deep',
    { offset: 80, line: 1, column: 81 },
  ],
  [
    'more nodes than the limit: the budget pass does not track where (it would cost per token)',
    `{"version":1,"x":[${'0,'.repeat(SPEC_MAX_NODES)}0]}`,
    'document-too-many-nodes',
    undefined,
  ],
  ['a missing version: no one place', '{"hooks":{}}', 'version-missing', undefined],
  [
    'a document past the size limit: no one place',
    `{"version":1,"x":"${'a'.repeat(4 * 1024 * 1024)}"}`,
    'document-too-large',
    undefined,
  ],
];

describe('positions of document refusals', () => {
  it.each(ROWS)('refuses %s with its position', (_, document, reason, at) => {
    const bytes = typeof document === 'string' ? utf8(document) : document;
    const { error } = plan(installReq(bytes));
    expect(error?.reason).toBe(reason);
    expect(error?.at).toEqual(at);
    expect(error?.cause instanceof UnsupportedError && error.cause.at).toEqual(at ?? undefined);
    // The message stays the fixed table text: no number is folded into it.
    expect(error?.message).toBe(messageFor(reason));
  });
});

describe('asConflict and positions', () => {
  const position = { offset: 3, line: 2, column: 1 };

  it('carries a position as a fresh frozen copy of its three numbers, or a host holds a live object of the thrower', () => {
    const thrown = new UnsupportedError('json-syntax', { at: position });
    const rebuilt = asConflict(thrown);
    expect(rebuilt.at).toEqual(position);
    expect(rebuilt.at).not.toBe(position);
    expect(Object.isFrozen(rebuilt.at)).toBe(true);
  });

  it.each([
    ['a string offset', { ...position, offset: 'secret' }],
    ['a fractional line', { ...position, line: 1.5 }],
    ['a zero column', { ...position, column: 0 }],
    ['a negative offset', { ...position, offset: -1 }],
    ['not an object', 'secret'],
  ])('drops a plugin position holding %s, or foreign values travel on', (_, at) => {
    const thrown = new UnsupportedError('path-unc');
    Object.defineProperty(thrown, 'at', { value: at });
    const rebuilt = asConflict(thrown);
    expect(rebuilt.reason).toBe('path-unc');
    expect(rebuilt.at).toBeUndefined();
    expect(Object.hasOwn(rebuilt, 'at')).toBe(false);
  });

  it('keeps the refusal when reading a plugin position throws, or asConflict itself throws', () => {
    const thrown = new UnsupportedError('path-unc');
    Object.defineProperty(thrown, 'at', {
      get() {
        throw new Error('secret');
      },
    });
    const rebuilt = asConflict(thrown);
    expect(rebuilt).toBeInstanceOf(CursorHooksError);
    expect(rebuilt.reason).toBe('path-unc');
    expect(rebuilt.at).toBeUndefined();
  });

  it('gives errors without a position no at property, or every error shape changes', () => {
    expect(Object.hasOwn(new UnsupportedError('json-syntax'), 'at')).toBe(false);
    expect(Object.hasOwn(asConflict(new UnsupportedError('json-syntax')), 'at')).toBe(false);
  });
});
