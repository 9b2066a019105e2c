import { describe, expect, it } from 'vitest';
import {
  DarwinUserShell20260918,
  LinuxUserShell32212,
  Operation,
  plan,
  verifyOwned,
} from '../../src/index.js';
import { decodeStrict, utf8 } from '../support/common.js';
import {
  bytes,
  COMMAND,
  ENTRY,
  ENTRY_TEXT,
  expectOk,
  installed,
  installReq,
  newFile,
  OTHER_SPEC,
  receiptOf,
  refused,
  replaceOnce,
  req,
  SPEC,
  WRITE,
} from './support.js';

describe('Install without a receipt', () => {
  it('renders the fixed five-token command with POSIX single quotes, or the owned command drifted from SPEC §1/§7', () => {
    expect(COMMAND).toBe(
      `'/opt/agent bin/agent' 'cursor-event' 'stop' '--binding' '/home/u/it'"'"'s/binding.json'`,
    );
    expect(ENTRY_TEXT).toBe(
      `{"type":"command","command":${JSON.stringify(COMMAND)},"timeout":5,"failClosed":false}`,
    );
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['empty bytes', new Uint8Array(0)],
  ] as const)(
    'creates the whole file for an absent document (%s) as JSON.stringify(doc, null, 2) + "\\n", or the new-file form changed',
    (_name, document) => {
      const result = plan(installReq(document));
      const receipt = receiptOf(result);
      expect(result.noOp).toBe(false);
      expect(decodeStrict(result.desired)).toBe(newFile({ version: 1, hooks: { stop: [ENTRY] } }));
      expect(receipt.spec).toEqual(SPEC);
      expect(receipt.shell).toBe(LinuxUserShell32212);
    },
  );

  it('creates hooks and stop in a document without hooks, appended last, or the insertion reformats or misplaces them', () => {
    const doc = { version: 1, name: 'mine', list: [1, 2] };
    const result = expectOk(plan(installReq(bytes(doc))));
    expect(decodeStrict(result.desired)).toBe(newFile({ ...doc, hooks: { stop: [ENTRY] } }));
  });

  it('creates stop as the last event in an existing hooks object, or it lands elsewhere', () => {
    const doc = { version: 1, hooks: { afterFileEdit: [{ command: 'fmt' }] }, tail: true };
    const result = expectOk(plan(installReq(bytes(doc))));
    const expected = {
      version: 1,
      hooks: { afterFileEdit: [{ command: 'fmt' }], stop: [ENTRY] },
      tail: true,
    };
    expect(decodeStrict(result.desired)).toBe(newFile(expected));
  });

  it('creates hooks.stop when only a root member after hooks is named stop, or a member lookup runs past its object', () => {
    const doc = { version: 1, hooks: { afterFileEdit: [] }, stop: [{ command: 'root' }] };
    const result = expectOk(plan(installReq(bytes(doc))));
    const expected = {
      version: 1,
      hooks: { afterFileEdit: [], stop: [ENTRY] },
      stop: [{ command: 'root' }],
    };
    expect(decodeStrict(result.desired)).toBe(newFile(expected));
  });

  it('appends the entry last in an existing stop and keeps foreign entries, or the order changes', () => {
    const doc = { version: 1, hooks: { stop: [{ command: 'a' }, 'opaque', 7] } };
    const result = expectOk(plan(installReq(bytes(doc))));
    expect(decodeStrict(result.desired)).toBe(
      newFile({ version: 1, hooks: { stop: [{ command: 'a' }, 'opaque', 7, ENTRY] } }),
    );
  });

  it('fills an empty stop array, or "stop": [] is treated as something else', () => {
    const result = expectOk(plan(installReq(bytes({ version: 1, hooks: { stop: [] } }))));
    expect(decodeStrict(result.desired)).toBe(newFile({ version: 1, hooks: { stop: [ENTRY] } }));
  });

  it('issues the same receipt for an absent file, {"version":1}, "hooks": {} and "stop": [], or empty containers and absence count as foreign remainder', () => {
    const expected = receiptOf(plan(installReq(undefined))).toJSON();
    for (const doc of [
      '{"version":1}',
      '{"version":1,"hooks":{}}',
      '{ "version" : 1 , "hooks" : { "stop" : [ ] } }',
    ]) {
      expect(receiptOf(plan(installReq(utf8(doc)))).toJSON()).toEqual(expected);
    }
    expect(
      receiptOf(plan(installReq(utf8('{"version":1,"hooks":{"future":[]}}')))).toJSON(),
    ).not.toEqual(expected);
  });

  it('issues a receipt that verifies the output and holds exactly the six receipt fields, or the receipt cannot prove what was written', () => {
    const { document, receipt } = installed({ version: 1 });
    expect(() => verifyOwned(document, receipt)).not.toThrow();
    const json = receipt.toJSON();
    expect(Object.keys(json).sort()).toEqual(
      ['entryDigest', 'event', 'remainderDigest', 'shell', 'spec', 'version'].sort(),
    );
    expect(json.version).toBe(1);
    expect(json.event).toBe('stop');
    expect(json.spec).toEqual({ executable: SPEC.executable, selector: SPEC.selector });
    expect(json.shell).toBe(LinuxUserShell32212);
    expect(json.entryDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(json.remainderDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(json.entryDigest).not.toBe(json.remainderDigest);
  });

  // Each entry holds the desired command with other fields: identity is the command alone.
  const collisions: readonly (readonly [string, string])[] = [
    ['an identical unreceipted entry in stop', stopDoc(ENTRY_TEXT)],
    ['a bare {command} in stop', stopDoc(`{"command":${JSON.stringify(COMMAND)}}`)],
    [
      'afterFileEdit with other fields',
      `{"version":1,"hooks":{"afterFileEdit":[{"type":"command","command":${JSON.stringify(COMMAND)},"timeout":99}]}}`,
    ],
    [
      'beforeShellExecution with matcher and failClosed',
      `{"version":1,"hooks":{"beforeShellExecution":[{"matcher":"*","command":${JSON.stringify(COMMAND)},"failClosed":true}],"stop":[]}}`,
    ],
    [
      'an unknown future event',
      `{"version":1,"hooks":{"x-future":[1,{"command":${JSON.stringify(COMMAND)},"extra":[1e400]}]}}`,
    ],
    [
      'stop with the command spelled with equivalent escapes',
      `{"version":1,"hooks":{"stop":[{"command":${escapeSome(JSON.stringify(COMMAND))}}]}}`,
    ],
  ];

  it.each(collisions)(
    'refuses with command-exists when the command sits in %s, or reinstall duplicates a foreign copy',
    (_name, doc) => {
      refused(installReq(utf8(doc)), 'command-exists', 'conflict');
    },
  );

  it.each([
    ['a longer command', `{"command":${JSON.stringify(`${COMMAND} `)}}`],
    ['a differently named member', `{"cmd":${JSON.stringify(COMMAND)}}`],
    ['a nested command', `{"hooks":[{"command":${JSON.stringify(COMMAND)}}]}`],
    ['a bare string element', JSON.stringify(COMMAND)],
    ['a non-string command', `{"command":[${JSON.stringify(COMMAND)}]}`],
  ])(
    'installs beside %s, or command identity is matched loosely (substring, nesting, any member)',
    (_name, foreign) => {
      const result = expectOk(plan(installReq(utf8(stopDoc(foreign)))));
      expect(result.noOp).toBe(false);
    },
  );

  it('refuses a second unreceipted install of its own output with command-exists, or reinstall duplicates the entry', () => {
    const { document } = installed({ version: 1 });
    refused(installReq(document), 'command-exists', 'conflict');
  });

  it('does not count an array entry holding "command" and the owned command as an occurrence, or non-object entries are read as objects', () => {
    const document = bytes({ version: 1, hooks: { stop: [['command', COMMAND]] } });
    const result = expectOk(plan(installReq(document)));
    expect(JSON.parse(decodeStrict(result.desired)).hooks.stop).toEqual([
      ['command', COMMAND],
      ENTRY,
    ]);
  });

  it('refuses a whitespace-only document as json-syntax, or it is mistaken for an absent file and overwritten', () => {
    refused(installReq(utf8(' \n\t')), 'json-syntax', 'unsupported');
  });
});

describe('Install with a receipt', () => {
  it('is a byte no-op returning an equal receipt on the unchanged document, or a repeat install rewrites the file', () => {
    const { document, receipt } = installed({ version: 1, other: 'x' });
    const result = plan(installReq(document, receipt));
    const again = receiptOf(result);
    expect(result.noOp).toBe(true);
    expect([...result.desired]).toEqual([...document]);
    expect(again.toJSON()).toEqual(receipt.toJSON());
  });

  it('refreshes the remainder digest after a legitimate foreign edit while keeping the bytes, or hosts keep a stale receipt', () => {
    const { document, receipt } = installed({ version: 1, hooks: { stop: [] } });
    const edited = replaceOnce(
      decodeStrict(document),
      '"hooks": {',
      '"hooks": {\n    "afterFileEdit": [{"command": "fmt"}],',
    );
    const result = plan(installReq(utf8(edited), receipt));
    const refreshed = receiptOf(result);
    expect(result.noOp).toBe(true);
    expect(decodeStrict(result.desired)).toBe(edited);
    expect(refreshed.entryDigest).toBe(receipt.entryDigest);
    expect(refreshed.remainderDigest).not.toBe(receipt.remainderDigest);
    // The same remainder, proven independently: a fresh install into the edited foreign part.
    const fresh = installed({
      version: 1,
      hooks: { afterFileEdit: [{ command: 'fmt' }], stop: [] },
    });
    expect(refreshed.remainderDigest).toBe(fresh.receipt.remainderDigest);
  });

  it('refuses with spec-mismatch when the request renders another entry, or a changed spec sneaks past Update', () => {
    const { document, receipt } = installed({ version: 1 });
    refused(
      req(Operation.Install, document, { ...WRITE, specs: [OTHER_SPEC], previous: receipt }),
      'spec-mismatch',
      'conflict',
    );
  });

  // Red: the refusal leaves the host guessing; it must name the operation that makes the change.
  it('says to use update when an install asks for another entry than the receipted one', () => {
    const { document, receipt } = installed({ version: 1 });
    const result = plan(
      req(Operation.Install, document, { ...WRITE, specs: [OTHER_SPEC], previous: receipt }),
    );
    expect(result.error?.message).toMatch(/use update/);
  });

  it('refuses with spec-mismatch when the receipt is for another spec than the request, or a foreign receipt adopts our entry', () => {
    const other = installed({ version: 1 }, OTHER_SPEC);
    const withBoth = installed(other.document);
    refused(installReq(withBoth.document, other.receipt), 'spec-mismatch', 'conflict');
  });

  it('accepts a request that renders the identical entry through the Darwin contract and names that shell, or the check compares ids instead of entries', () => {
    const { document, receipt } = installed({ version: 1 });
    const result = plan(
      req(Operation.Install, document, {
        ...WRITE,
        shell: DarwinUserShell20260918,
        previous: receipt,
      }),
    );
    const refreshed = receiptOf(result);
    expect(result.noOp).toBe(true);
    expect(refreshed.shell).toBe(DarwinUserShell20260918);
    expect(refreshed.entryDigest).toBe(receipt.entryDigest);
  });

  it('refuses with owner-absent (AbsenceUnproven) when the owner is gone, or a receipted install silently reinstalls', () => {
    const { receipt } = installed({ version: 1 });
    refused(
      installReq(bytes({ version: 1, hooks: { stop: [] } }), receipt),
      'owner-absent',
      'absence',
    );
    refused(installReq(undefined, receipt), 'owner-absent', 'absence');
  });

  it('accepts previous as a Receipt and as a plain object with identical results, or ledgers read as JSON behave differently', () => {
    const { document, receipt } = installed({ version: 1 });
    const viaClass = plan(installReq(document, receipt));
    const viaJson = plan(installReq(document, JSON.parse(JSON.stringify(receipt))));
    expect(receiptOf(viaJson).toJSON()).toEqual(receiptOf(viaClass).toJSON());
    expect([...viaJson.desired]).toEqual([...viaClass.desired]);
  });
});

/** A compact document whose stop holds `entry`. */
function stopDoc(entry: string): string {
  return `{"version":1,"hooks":{"stop":[${entry}]}}`;
}

/** Rewrites a JSON string literal with `\/` for every slash and `\u0027` for apostrophes. */
function escapeSome(literal: string): string {
  return literal.replaceAll('/', '\\/').replaceAll("'", '\\u0027');
}
