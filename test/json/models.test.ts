// Which neighbour new text copies (SPEC §4). Each case is one choice the layout code makes,
// on the smallest document where the right choice and the wrong one give different bytes.

import { describe, expect, it } from 'vitest';
import { ENTRY, edited, type Op } from './edits.js';

/** ENTRY as JSON.stringify writes it with `step`, on a line indented by `indent`. */
const ENTRY_LINES = (indent: string, step: string) =>
  JSON.stringify(ENTRY, null, step).replaceAll('\n', `\n${indent}`);

// [red condition, document, edit, expected document]
const CASES: readonly (readonly [string, string, Op, string])[] = [
  // Containers and their members
  [
    'an array that writes lines is passed over when looking for the nearest step',
    '{"x": [\n    1\n]}',
    { op: 'replaceNode', path: ['x', 0], value: { a: 1 } },
    '{"x": [\n    {\n        "a": 1\n    }\n]}',
  ],
  [
    'a scalar on the path is read as a container when looking for the nearest step',
    '{\n   "stop" : [\n      {\n         "command" : "a",\n         "n" : 3\n      }\n   ]\n}',
    { op: 'replaceNode', path: ['stop', 0, 'n'], value: { a: 1 } },
    '{\n   "stop" : [\n      {\n         "command" : "a",\n         "n" : {\n            "a" : 1\n         }\n      }\n   ]\n}',
  ],
  [
    'an empty array written across lines is taken for one that writes lines',
    '{\n  "version": 1,\n  "hooks": {\n    "stop": [\n    ]\n  }\n}',
    { op: 'appendElement', path: ['hooks', 'stop'], value: ENTRY },
    `{\n  "version": 1,\n  "hooks": {\n    "stop": [\n      ${ENTRY_LINES('      ', '  ')}\n    ]\n  }\n}`,
  ],
  [
    'a CRLF container is taken for one on a single line when looking for the nearest step',
    '{\r\n  "hooks": {\r\n      "n": 1\r\n  }\r\n}',
    { op: 'replaceNode', path: ['hooks', 'n'], value: { a: 1 } },
    '{\r\n  "hooks": {\r\n      "n": {\r\n          "a": 1\r\n      }\r\n  }\r\n}',
  ],
  [
    'an empty root looks for a twin beside itself',
    '{}',
    { op: 'appendMember', path: [], key: 'version', value: 1 },
    '{"version":1}',
  ],
  // Steps
  [
    'items outdented below their bracket line are taken as a step of nothing',
    '{\n  "stop": [\n    {\n  "command": "a"\n    }\n  ]\n}',
    { op: 'appendElement', path: ['stop'], value: ENTRY },
    `{\n  "stop": [\n    {\n  "command": "a"\n    },\n    ${ENTRY_LINES('    ', '  ')}\n  ]\n}`,
  ],
  [
    'tab indentation is not matched against the bracket line, so the step doubles',
    '{\n\t"stop": [\n\t\t{\n\t\t\t"command": "a"\n\t\t}\n\t]\n}',
    { op: 'appendElement', path: ['stop'], value: ENTRY },
    `{\n\t"stop": [\n\t\t{\n\t\t\t"command": "a"\n\t\t},\n\t\t${ENTRY_LINES('\t\t', '\t')}\n\t]\n}`,
  ],
  // Gaps
  [
    'a spaced single-item array takes its comma gap from the element instead of its bracket',
    '{"x": [ {"a":1} ]}',
    { op: 'appendElement', path: ['x'], value: ENTRY },
    '{"x": [ {"a":1}, {"type":"command","command":"x","timeout":5,"failClosed":false} ]}',
  ],
  [
    'the colon gap of a single array element is read from an array',
    '{"x": [[1, 2]]}',
    { op: 'appendElement', path: ['x'], value: [3] },
    '{"x": [[1, 2],[3]]}',
  ],
  [
    'the colon gap of a single empty object element is read past its end',
    '{"x": [{}]}',
    { op: 'appendElement', path: ['x'], value: { a: 1 } },
    '{"x": [{},{"a": 1}]}',
  ],
  [
    'a new item copies the first comma gap instead of the last',
    '{"x": [1, 2,  3]}',
    { op: 'appendElement', path: ['x'], value: 4 },
    '{"x": [1, 2,  3,  4]}',
  ],
  [
    "a one-line container's colon decides the object's",
    '{"a" : 1, "b":{"c":1}}',
    { op: 'appendMember', path: [], key: 'stop', value: 1 },
    '{"a" : 1, "b":{"c":1}, "stop" : 1}',
  ],
  [
    "a multi-line container's colon is passed over",
    '{"a":1, "b" : {\n "c": 1\n}}',
    { op: 'appendMember', path: [], key: 'stop', value: 1 },
    '{"a":1, "b" : {\n "c": 1\n}, "stop" : 1}',
  ],
  // Models
  [
    'a model is looked for past the end of its container',
    '{"x": [[1], {"b" : 2}]}',
    { op: 'appendElement', path: ['x'], value: [ENTRY] },
    '{"x": [[1], {"b" : 2}, [{"type": "command", "command": "x", "timeout": 5, "failClosed": false}]]}',
  ],
  [
    'an object is taken as the model of an array',
    '{"x": [[ 1 ], {"b" : 2}]}',
    { op: 'appendElement', path: ['x'], value: [ENTRY] },
    '{"x": [[ 1 ], {"b" : 2}, [ {"type": "command", "command": "x", "timeout": 5, "failClosed": false} ]]}',
  ],
  [
    'a twin is looked for past the end of the parent',
    '{"x": [[[]], [ 1 ]]}',
    { op: 'appendElement', path: ['x', 0, 0], value: 7 },
    '{"x": [[[7]], [ 1 ]]}',
  ],
  [
    'an empty array takes the shape of a sibling object',
    '{\n  "hooks": {\n    "a": { "k": 1 },\n    "stop": []\n  }\n}',
    { op: 'appendElement', path: ['hooks', 'stop'], value: ENTRY },
    `{\n  "hooks": {\n    "a": { "k": 1 },\n    "stop": [\n      ${ENTRY_LINES('      ', '  ')}\n    ]\n  }\n}`,
  ],
  [
    "a foreign root member's arrays are models for a new stop",
    '{\n  "hooks": {},\n  "other": { "x": [ 1 ] }\n}',
    { op: 'appendMember', path: ['hooks'], key: 'stop', value: [ENTRY] },
    `{\n  "hooks": {\n    "stop": [\n      ${ENTRY_LINES('      ', '  ')}\n    ]\n  },\n  "other": { "x": [ 1 ] }\n}`,
  ],
  [
    'a foreign root object is the twin of an empty hooks',
    '{\n  "editor": { "tabSize": 4 },\n  "hooks": {}\n}',
    { op: 'appendMember', path: ['hooks'], key: 'stop', value: [ENTRY] },
    `{\n  "editor": { "tabSize": 4 },\n  "hooks": {\n    "stop": [\n      ${ENTRY_LINES('      ', '  ')}\n    ]\n  }\n}`,
  ],
  // Replacements
  [
    'the root is never the model of its own replacement',
    '{ "a" : 1 }',
    { op: 'replaceNode', path: [], value: { b: 2 } },
    '{ "b" : 2 }',
  ],
  [
    'a replaced array is not the model of the array that replaces it',
    '{\n  "a": [1,{"b":2}],\n  "c": {}\n}',
    { op: 'replaceNode', path: ['a'], value: [1, { b: 2 }] },
    '{\n  "a": [1,{"b":2}],\n  "c": {}\n}',
  ],
  [
    'an empty array is the model of the array that replaces it',
    '{\n  "hooks": {\n    "other": [\n      { "command": "o" }\n    ],\n    "stop": []\n  }\n}',
    { op: 'replaceNode', path: ['hooks', 'stop'], value: [ENTRY] },
    '{\n  "hooks": {\n    "other": [\n      { "command": "o" }\n    ],\n    "stop": [\n      { "type": "command", "command": "x", "timeout": 5, "failClosed": false }\n    ]\n  }\n}',
  ],
  [
    'a replaced object is the model of the array that replaces it',
    '{"x": [{"a":1}, [ 1 ]]}',
    { op: 'replaceNode', path: ['x', 0], value: [2] },
    '{"x": [[ 2 ], [ 1 ]]}',
  ],
];

describe('new text copies the right neighbour', () => {
  it.each(CASES)('catches: %s', (_red, input, op, expected) => {
    expect(edited(input, op)).toBe(expected);
  });
});
