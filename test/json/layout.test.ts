// Issue 10: edits on layouts that are not JSON.stringify output. Each case names the layout,
// the edit and the exact bytes a careful human would have written.

import { describe, expect, it } from 'vitest';
import { ENTRY, edited, type Op } from './edits.js';

type Edit = 'append' | 'stop' | 'hooks' | 'replace';

/** The Install/Update edits HookDocument makes. */
const EDITS: Record<Edit, Op> = {
  append: { op: 'appendElement', path: ['hooks', 'stop'], value: ENTRY },
  stop: { op: 'appendMember', path: ['hooks'], key: 'stop', value: [ENTRY] },
  hooks: { op: 'appendMember', path: [], key: 'hooks', value: { stop: [ENTRY] } },
  replace: { op: 'replaceNode', path: ['hooks', 'stop', -1], value: ENTRY },
};

const ONE_LINE_ENTRY = '{ "type": "command", "command": "x", "timeout": 5, "failClosed": false }';

const CASES: readonly (readonly [string, Edit, string, string])[] = [
  [
    'one-line neighbour entries in a multi-line array',
    'append',
    '{\n  "version": 1,\n  "hooks": {\n    "stop": [\n      { "command": "a" }\n    ]\n  }\n}',
    `{\n  "version": 1,\n  "hooks": {\n    "stop": [\n      { "command": "a" },\n      ${ONE_LINE_ENTRY}\n    ]\n  }\n}`,
  ],
  [
    'a one-line array of one one-line entry: comma spaced like its colon',
    'append',
    '{\n  "version": 1,\n  "hooks": {\n    "stop": [{ "command": "a" }]\n  }\n}',
    `{\n  "version": 1,\n  "hooks": {\n    "stop": [{ "command": "a" }, ${ONE_LINE_ENTRY}]\n  }\n}`,
  ],
  [
    'a one-line array of a multi-line entry (cuddled brackets)',
    'append',
    '{\n  "version": 1,\n  "hooks": {\n    "stop": [{\n      "command": "a"\n    }]\n  }\n}',
    '{\n  "version": 1,\n  "hooks": {\n    "stop": [{\n      "command": "a"\n    }, {\n      "type": "command",\n      "command": "x",\n      "timeout": 5,\n      "failClosed": false\n    }]\n  }\n}',
  ],
  [
    'compact one-line entries in a pretty file',
    'append',
    '{\n  "version": 1,\n  "hooks": {\n    "stop": [{"command":"a"},{"command":"b"}]\n  }\n}',
    '{\n  "version": 1,\n  "hooks": {\n    "stop": [{"command":"a"},{"command":"b"},{"type":"command","command":"x","timeout":5,"failClosed":false}]\n  }\n}',
  ],
  [
    'indent 4 at the root and 2 inside hooks: the entry steps by 2',
    'append',
    '{\n    "version": 1,\n    "hooks": {\n      "stop": [\n        {\n          "command": "a"\n        }\n      ]\n    }\n}',
    '{\n    "version": 1,\n    "hooks": {\n      "stop": [\n        {\n          "command": "a"\n        },\n        {\n          "type": "command",\n          "command": "x",\n          "timeout": 5,\n          "failClosed": false\n        }\n      ]\n    }\n}',
  ],
  [
    'indent 2 at the root and 4 inside hooks: a new stop steps like its sibling event',
    'stop',
    '{\n  "version": 1,\n  "hooks": {\n      "a": [\n          {\n              "command": "a"\n          }\n      ]\n  }\n}',
    '{\n  "version": 1,\n  "hooks": {\n      "a": [\n          {\n              "command": "a"\n          }\n      ],\n      "stop": [\n          {\n              "type": "command",\n              "command": "x",\n              "timeout": 5,\n              "failClosed": false\n          }\n      ]\n  }\n}',
  ],
  [
    'indent 2 at the root and 4 inside an empty-evented hooks: the nearest multi-line step',
    'stop',
    '{\n  "version": 1,\n  "hooks": {\n      "a": []\n  }\n}',
    '{\n  "version": 1,\n  "hooks": {\n      "a": [],\n      "stop": [\n          {\n              "type": "command",\n              "command": "x",\n              "timeout": 5,\n              "failClosed": false\n          }\n      ]\n  }\n}',
  ],
  [
    'one-line sibling event arrays: a new stop is one line too',
    'stop',
    '{\n  "version": 1,\n  "hooks": {\n    "a": [{ "command": "a" }]\n  }\n}',
    `{\n  "version": 1,\n  "hooks": {\n    "a": [{ "command": "a" }],\n    "stop": [${ONE_LINE_ENTRY}]\n  }\n}`,
  ],
  [
    'a compact "hooks":{} island in a pretty file: the file decides, not the island',
    'stop',
    '{\n  "version": 1,\n  "hooks":{}\n}',
    '{\n  "version": 1,\n  "hooks":{\n    "stop": [\n      {\n        "type": "command",\n        "command": "x",\n        "timeout": 5,\n        "failClosed": false\n      }\n    ]\n  }\n}',
  ],
  [
    'a compact island as the first root member does not set the colon',
    'hooks',
    '{\n  "a":{},\n  "version": 1\n}',
    '{\n  "a":{},\n  "version": 1,\n  "hooks": {\n    "stop": [\n      {\n        "type": "command",\n        "command": "x",\n        "timeout": 5,\n        "failClosed": false\n      }\n    ]\n  }\n}',
  ],
  [
    'a one-line foreign root object is not a model for hooks',
    'hooks',
    '{\n    "version": 1,\n    "editor": { "tabSize": 4 }\n}',
    '{\n    "version": 1,\n    "editor": { "tabSize": 4 },\n    "hooks": {\n        "stop": [\n            {\n                "type": "command",\n                "command": "x",\n                "timeout": 5,\n                "failClosed": false\n            }\n        ]\n    }\n}',
  ],
  [
    'a one-line file with spaces (Python json.dumps): one line, same spacing',
    'hooks',
    '{"version": 1}',
    '{"version": 1, "hooks": {"stop": [{"type": "command", "command": "x", "timeout": 5, "failClosed": false}]}}',
  ],
  [
    'a one-line file with spaces inside braces',
    'hooks',
    '{ "version": 1 }',
    '{ "version": 1, "hooks": { "stop": [ { "type": "command", "command": "x", "timeout": 5, "failClosed": false } ] } }',
  ],
  [
    'spaces before colons',
    'append',
    '{\n   "version" : 1,\n   "hooks" : {\n      "stop" : [\n         {\n            "command" : "a"\n         }\n      ]\n   }\n}',
    '{\n   "version" : 1,\n   "hooks" : {\n      "stop" : [\n         {\n            "command" : "a"\n         },\n         {\n            "type" : "command",\n            "command" : "x",\n            "timeout" : 5,\n            "failClosed" : false\n         }\n      ]\n   }\n}',
  ],
  [
    'CRLF and tabs with one-line entries',
    'append',
    '{\r\n\t"version": 1,\r\n\t"hooks": {\r\n\t\t"stop": [\r\n\t\t\t{ "command": "a" }\r\n\t\t]\r\n\t}\r\n}\r\n',
    `{\r\n\t"version": 1,\r\n\t"hooks": {\r\n\t\t"stop": [\r\n\t\t\t{ "command": "a" },\r\n\t\t\t${ONE_LINE_ENTRY}\r\n\t\t]\r\n\t}\r\n}\r\n`,
  ],
  [
    'zero indentation with line breaks is multi-line, not compact',
    'append',
    '{\n"version": 1,\n"hooks": {\n"stop": [\n{\n"command": "a"\n}\n]\n}\n}',
    '{\n"version": 1,\n"hooks": {\n"stop": [\n{\n"command": "a"\n},\n{\n"type": "command",\n"command": "x",\n"timeout": 5,\n"failClosed": false\n}\n]\n}\n}',
  ],
  [
    'Update keeps a one-line entry on one line',
    'replace',
    '{\n  "version": 1,\n  "hooks": {\n    "stop": [\n      {"command": "a", "timeout": 1}\n    ]\n  }\n}',
    '{\n  "version": 1,\n  "hooks": {\n    "stop": [\n      {"type": "command", "command": "x", "timeout": 5, "failClosed": false}\n    ]\n  }\n}',
  ],
];

describe('edits copy the layout of their neighbours (issue 10)', () => {
  it.each(CASES)(
    '%s, or the new text does not look like its neighbours',
    (_label, kind, input, expected) => {
      expect(edited(input, EDITS[kind])).toBe(expected);
    },
  );
});
