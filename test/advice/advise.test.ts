// adviseHooks, one code at a time: each from a file that has it, with its severity and
// position (source, event, indexes) exact, and its sentence from the fixed table.
import { describe, expect, it } from 'vitest';
import {
  adviseHooks,
  FINDING_SENTENCES,
  type Finding,
  LinuxUserShell32212,
  Operation,
  plan,
  WindowsPowerShellStop20261001,
} from '../../src/index.js';
import { utf8 } from '../support/common.js';

const OURS = "'/opt/agent/bin/notify' 'cursor-event' 'stop' '--binding' '/opt/agent/stop.json'";
const doc = (value: unknown): string => JSON.stringify(value);
const cursor = (hooks: unknown): string => doc({ version: 1, hooks });

type Expected = Omit<Finding, 'sentence'>;
type Case = readonly [
  label: string,
  document: string | Uint8Array | undefined,
  options: Parameters<typeof adviseHooks>[1],
  expected: Expected,
];

const CASES: readonly Case[] = [
  ['an empty file', '', {}, { code: 'empty-file', severity: 'advice', source: 'user' }],
  [
    'a trailing comma',
    '{\n  "version": 1,\n  "hooks": {},\n}\n',
    { source: 'project' },
    { code: 'not-json', severity: 'voids-file', source: 'project', line: 3, column: 14 },
  ],
  [
    'a file beyond what is read (not UTF-8)',
    new Uint8Array([...utf8('{"version":1,"x":"'), 0xff, ...utf8('"}')]),
    {},
    { code: 'not-checked', severity: 'advice', source: 'user', line: 1, column: 19 },
  ],
  [
    'a repeated stop key',
    '{"version":1,"hooks":{"stop":[],\n"stop":[]}}',
    {},
    { code: 'key-duplicated', severity: 'voids-entry', source: 'user', line: 2, column: 1 },
  ],
  ['an array root', '[]', {}, { code: 'root-not-object', severity: 'voids-file', source: 'user' }],
  [
    'no version',
    doc({ hooks: {} }),
    {},
    { code: 'version-missing', severity: 'advice', source: 'user' },
  ],
  [
    'version 2',
    doc({ version: 2 }),
    {},
    { code: 'version-not-1', severity: 'advice', source: 'user' },
  ],
  [
    'a string version',
    doc({ version: '1' }),
    { source: 'enterprise' },
    { code: 'version-not-1', severity: 'voids-file', source: 'enterprise' },
  ],
  [
    'hooks as a list',
    doc({ version: 1, hooks: [] }),
    {},
    { code: 'hooks-not-object', severity: 'voids-file', source: 'user' },
  ],
  [
    'an event that is an object',
    cursor({ stop: [], afterFileEdit: {} }),
    {},
    {
      code: 'event-not-array',
      severity: 'voids-file',
      source: 'user',
      event: 'afterFileEdit',
      index: 1,
    },
  ],
  [
    'an unknown event (its name is never given)',
    cursor({ stop: [], sessionStart: [], notification: [] }),
    {},
    { code: 'event-unknown', severity: 'voids-file', source: 'user', index: 2 },
  ],
  [
    'an entry that is a string',
    cursor({ stop: [{ command: 'a' }, 'b'] }),
    {},
    {
      code: 'entry-not-object',
      severity: 'voids-entry',
      source: 'user',
      event: 'stop',
      eventIndex: 0,
      index: 1,
    },
  ],
  [
    'an entry without command',
    cursor({ preToolUse: [], stop: [{ timeout: 5 }] }),
    {},
    {
      code: 'command-missing',
      severity: 'voids-entry',
      source: 'user',
      event: 'stop',
      eventIndex: 1,
      index: 0,
    },
  ],
  [
    'a Claude-style nested entry',
    cursor({ stop: [{ matcher: '', hooks: [{ type: 'command', command: 'x' }] }] }),
    { source: 'project' },
    {
      code: 'claude-style-entry',
      severity: 'voids-entry',
      source: 'project',
      event: 'stop',
      eventIndex: 0,
      index: 0,
    },
  ],
  ...(
    [
      ['type', 1],
      ['timeout', '5'],
      ['matcher', ['x']],
      ['loop_limit', -1],
      ['failClosed', 'false'],
    ] as const
  ).map(
    ([field, value]): Case => [
      `a ${field} of the wrong type`,
      cursor({ stop: [{ command: 'a' }, { command: 'b', [field]: value }] }),
      {},
      {
        code: 'field-type',
        severity: 'voids-entry',
        source: 'user',
        event: 'stop',
        eventIndex: 0,
        index: 1,
        field,
      },
    ],
  ),
  [
    'one command twice in one event',
    cursor({ stop: [{ command: 'a' }, { command: 'b' }, { command: 'a' }] }),
    {},
    {
      code: 'command-duplicated',
      severity: 'fires-twice',
      source: 'user',
      event: 'stop',
      eventIndex: 0,
      index: 2,
    },
  ],
  [
    'our command in a project file',
    cursor({ afterFileEdit: [{ command: 'f' }], stop: [{ command: OURS }] }),
    { source: 'project', ownedCommand: OURS },
    {
      code: 'owned-elsewhere',
      severity: 'fires-twice',
      source: 'project',
      event: 'stop',
      eventIndex: 1,
      index: 0,
      ours: true,
    },
  ],
  [
    "our command in ~/.claude/settings.json, Claude's nested Stop",
    doc({
      hooks: {
        Stop: [
          {
            matcher: '',
            hooks: [
              { type: 'command', command: 'x' },
              { type: 'command', command: OURS },
            ],
          },
        ],
      },
    }),
    { source: 'claude-user', ownedCommand: OURS },
    {
      code: 'owned-elsewhere',
      severity: 'fires-twice',
      source: 'claude-user',
      event: 'Stop',
      eventIndex: 0,
      index: 0,
      hook: 1,
      ours: true,
    },
  ],
  [
    'our command absent from the user file',
    cursor({ stop: [{ command: 'other' }] }),
    { ownedCommand: OURS },
    { code: 'owned-missing', severity: 'voids-entry', source: 'user', ours: true },
  ],
  [
    'the user file absent with our command receipted',
    undefined,
    { ownedCommand: OURS },
    { code: 'owned-missing', severity: 'voids-entry', source: 'user', ours: true },
  ],
  [
    'a quoted path without & on Windows',
    cursor({ stop: [{ command: '& "C:\\a b\\x.exe" y' }, { command: '"C:\\a b\\x.exe" y' }] }),
    { family: 'powershell-stop' },
    {
      code: 'windows-quoted-path',
      severity: 'voids-entry',
      source: 'user',
      event: 'stop',
      eventIndex: 0,
      index: 1,
    },
  ],
  [
    'an invalid group in a Claude settings file (the whole file is ignored)',
    doc({ hooks: { PreToolUse: [{ matcher: 3, hooks: [] }] } }),
    { source: 'claude-project' },
    {
      code: 'field-type',
      severity: 'voids-file',
      source: 'claude-project',
      event: 'PreToolUse',
      eventIndex: 0,
      index: 0,
      field: 'matcher',
    },
  ],
  [
    'a Claude inner hook without command',
    doc({ hooks: { Notification: [{ hooks: [{ type: 'command' }] }] } }),
    { source: 'claude-project-local' },
    {
      code: 'command-missing',
      severity: 'voids-file',
      source: 'claude-project-local',
      eventIndex: 0,
      index: 0,
      hook: 0,
    },
  ],
];

describe('adviseHooks, one code from a file that has it', () => {
  it.each(CASES)(
    '%s gives exactly that finding, position and severity (red: the check or its position is wrong)',
    (_label, document, options, expected) => {
      const found = adviseHooks(document, options).filter((f) => f.code === expected.code);
      expect(found).toEqual([{ ...expected, sentence: expect.any(String) }]);
      const [only] = found as [Finding];
      expect(only.sentence.startsWith(FINDING_SENTENCES[expected.code])).toBe(true);
    },
  );

  it('covers every code of the sentence table, or a code ships untested', () => {
    const tested = new Set(CASES.map(([, , , expected]) => expected.code));
    const untested = Object.keys(FINDING_SENTENCES).filter(
      (code) =>
        !tested.has(code as Finding['code']) &&
        code !== 'source-unreadable' &&
        code !== 'command-in-two-sources',
    );
    expect(untested).toEqual([]);
  });

  it('finds nothing in a clean file with our entry installed by plan (red: it cries wolf)', () => {
    const result = plan({
      document: utf8(cursor({ afterFileEdit: [{ command: './format.sh', timeout: 30 }] })),
      operation: Operation.Install,
      specs: [{ executable: '/opt/agent/bin/notify', selector: '/opt/agent/stop.json' }],
      shell: LinuxUserShell32212,
      executableVerified: true,
    });
    if (result.desired === undefined || result.receipt === undefined) throw new Error('no plan');
    expect(adviseHooks(result.desired, { receipt: result.receipt })).toEqual([]);
    expect(adviseHooks(result.desired, { receipt: result.receipt, source: 'project' })).toEqual([
      expect.objectContaining({ code: 'owned-elsewhere', severity: 'fires-twice', index: 0 }),
    ]);
  });

  it('accepts a prompt entry without command, and ours on Windows with & (red: false voidings)', () => {
    const prompt = cursor({
      stop: [{ type: 'prompt', prompt: 'p', model: 'm', loop_limit: null }],
    });
    expect(adviseHooks(prompt)).toEqual([]);
    const launched = cursor({ stop: [{ command: "& 'C:\\a\\x.exe' 'cursor-event'" }] });
    expect(adviseHooks(launched, { shell: WindowsPowerShellStop20261001 })).toEqual([]);
    expect(
      adviseHooks(cursor({ stop: [{ command: '"C:\\x.exe"' }] }), { shell: LinuxUserShell32212 }),
    ).toEqual([]);
  });

  it("reads a Claude file's whole-file note as part of the one sentence (red: it runs on after the sentence with no stop, '...remove the entry In a Claude...')", () => {
    const text = doc({ hooks: { Notification: [{ hooks: [{ type: 'command' }] }] } });
    const [found] = adviseHooks(text, { source: 'claude-user' });
    expect(found?.sentence).toMatch(
      /; in a Claude Code settings file one invalid entry makes the whole file ignored$/,
    );
    expect(found?.sentence).not.toMatch(/[a-z] In a Claude/);
  });

  it('never names an unknown event or an unknown Claude event (red: a key of the file leaks)', () => {
    const text = doc({ hooks: { Zq9Event: [{ hooks: [{ type: 'command' }] }] } });
    const found = adviseHooks(text, { source: 'claude-user' });
    expect(found).toHaveLength(1);
    expect(JSON.stringify(found)).not.toContain('Zq9');
  });

  it.each([[{ source: 'team' }], [{ ownedCommand: 5 }], [{ family: 'cmd' }], [null]])(
    'refuses options %j with advice-options-invalid (red: bad options silently default)',
    (options) => {
      expect(() => adviseHooks('{}', options as never)).toThrow(
        expect.objectContaining({ reason: 'advice-options-invalid' }),
      );
    },
  );

  it('refuses a document that is neither bytes nor text (red: a number is taken for a file)', () => {
    expect(() => adviseHooks(5 as never)).toThrow(
      expect.objectContaining({ reason: 'document-malformed' }),
    );
  });
});
