// The pure half of qualifying the user's own Cursor build: grammar families, strict
// qualification records, the contract a record becomes, and checkStopEvent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ErrorReason } from '../../src/errors/reasons.js';
import {
  checkStopEvent,
  createPlannerContainer,
  grammarFamilies,
  HookPlanner,
  LinuxUserShell32212,
  qualifiedContract,
  SHELL_CONTRACT,
  UnsupportedError,
  WindowsPowerShellStop20261001,
} from '../../src/index.js';
import { plannerWith } from '../../src/planner/default.js';
import { grammarFamily } from '../../src/shell/families.js';
import { stopArgv } from '../../src/shell/stop-invocation.js';
import { expectSchema } from '../cli/schema-check.js';
import { type Draft, POSIX_ARGV, record, VERSION } from './records.js';
import { expectRefusal } from './refusal.js';

describe('grammar families', () => {
  it('list the two families, and every built-in contract names one (red: a contract has no family to re-qualify with)', () => {
    expect(grammarFamilies().map((f) => f.id)).toEqual(['posix-single-quote', 'powershell-stop']);
    const planner = createPlannerContainer().get(HookPlanner);
    const ids = grammarFamilies().map((f) => f.id as string);
    for (const contract of planner.contracts()) expect(ids).toContain(contract.family);
  });

  it('render exactly as the built-in contracts of their family (red: a family is a drifting copy)', () => {
    const planner = createPlannerContainer().get(HookPlanner);
    expect(grammarFamily('posix-single-quote')?.render(POSIX_ARGV)).toBe(
      planner.renderArgv(LinuxUserShell32212, POSIX_ARGV),
    );
    const windows = stopArgv("C:\\Users\\O'Neil\\a.exe", 'C:\\b.json');
    expect(grammarFamily('powershell-stop')?.render(windows)).toBe(
      planner.renderArgv(WindowsPowerShellStop20261001, windows),
    );
  });
});

describe('qualifiedContract', () => {
  it('matches its shipped JSON Schema as a probe writes it (red: the schema and the reader disagree)', () => {
    expectSchema('qualification-record', record());
  });

  it('turns a probe record into a frozen contract with its evidence, which a planner registers (red: a qualified build cannot be used)', () => {
    const contract = qualifiedContract(record());
    expect(Object.isFrozen(contract)).toBe(true);
    expect(contract).toMatchObject({
      id: 'cursor-ide-3.40.1-linux-x64-posix-single-quote',
      family: 'posix-single-quote',
    });
    expect(contract.evidence.version).toBe(VERSION);
    const planner = plannerWith([contract]);
    expect(planner.renderArgv(contract.id, POSIX_ARGV)).toBe(
      planner.renderArgv(LinuxUserShell32212, POSIX_ARGV),
    );
    const container = createPlannerContainer();
    container.bind(SHELL_CONTRACT).toConstantValue(contract);
    expect(
      container
        .get(HookPlanner)
        .contracts()
        .map((c) => c.id),
    ).toContain(contract.id);
  });

  it.each<[string, (r: Draft) => void, ErrorReason]>([
    [
      'an argv the recorder did not see',
      (r) => {
        r.probe.recorded.argv[4] = '/home/ada/other.json';
      },
      'record-argv-mismatch',
    ],
    [
      'a dropped empty token',
      (r) => {
        r.probe.recorded.argv.pop();
      },
      'record-argv-mismatch',
    ],
    [
      'an unknown family',
      (r) => {
        r.family = 'cmd-exe';
      },
      'record-family-unknown',
    ],
    [
      'a built-in id',
      (r) => {
        r.id = LinuxUserShell32212;
      },
      'record-id-builtin',
    ],
    [
      'the unqualified Windows id',
      (r) => {
        r.id = 'cursor-windows-unqualified';
      },
      'record-id-builtin',
    ],
    [
      'a malformed id',
      (r) => {
        r.id = 'My Contract';
      },
      'record-id-malformed',
    ],
    [
      'an extra key',
      (r) => {
        r.trusted = true;
      },
      'record-malformed',
    ],
    [
      'an extra evidence key',
      (r) => {
        r.evidence.grammar = 'anything';
      },
      'record-malformed',
    ],
    [
      'a missing key',
      (r) => {
        delete r.probe.recorded.cwd;
      },
      'record-malformed',
    ],
    [
      'a number for a string',
      (r) => {
        r.evidence.version = 3.4;
      },
      'record-malformed',
    ],
    [
      'another record version',
      (r) => {
        r.version = 2;
      },
      'record-version-unsupported',
    ],
    [
      'evidence claiming another version',
      (r) => {
        r.evidence.version = '3.41.0';
      },
      'record-version-mismatch',
    ],
    [
      'no version reported by Cursor',
      (r) => {
        r.probe.recorded.cursorVersion = null;
        r.probe.recorded.cursorVersionEnv = null;
      },
      'record-version-mismatch',
    ],
    [
      'stdin and environment disagreeing',
      (r) => {
        r.probe.recorded.cursorVersionEnv = '3.39.0';
      },
      'record-version-mismatch',
    ],
    [
      'a command the family would not render',
      (r) => {
        r.probe.command = r.probe.argv.join(' ');
      },
      'record-command-mismatch',
    ],
    [
      'another event',
      (r) => {
        r.probe.recorded.hookEventName = 'afterFileEdit';
      },
      'record-event-not-stop',
    ],
  ])(
    'refuses a record edited by hand: %s, with %s (red: a hand edit widens a grammar or claims a build)',
    (_, edit, reason) => {
      expectRefusal(() => qualifiedContract(record(edit)), UnsupportedError, reason);
    },
  );

  it('refuses getters, throwing Proxies and null as malformed without running a getter (red: a hostile record checks one value and uses another)', () => {
    let reads = 0;
    const hostile = record() as Record<string, unknown>;
    Object.defineProperty(hostile, 'id', {
      get: () => (reads++ === 0 ? 'ok-id' : LinuxUserShell32212),
      enumerable: true,
    });
    expectRefusal(() => qualifiedContract(hostile), UnsupportedError, 'record-malformed');
    expect(reads).toBe(0);
    expectRefusal(
      () =>
        qualifiedContract(
          new Proxy(record() as object, {
            getOwnPropertyDescriptor: () => {
              throw new Error('a trap');
            },
          }),
        ),
      UnsupportedError,
      'record-malformed',
    );
    expectRefusal(() => qualifiedContract(null), UnsupportedError, 'record-malformed');
  });

  // Red: a qualified contract accepts what its family refuses, or renders otherwise.
  it('never accepts an argv or path its family refuses, and renders exactly as the family (property)', () => {
    const contract = qualifiedContract(record());
    const family = grammarFamily('posix-single-quote');
    const outcome = (fn: () => unknown) => {
      try {
        return { ok: fn() };
      } catch (err) {
        return { refused: (err as { reason?: string }).reason };
      }
    };
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary' }), { maxLength: 6 }),
        fc.string({ unit: 'binary' }),
        (argv, path) => {
          expect(outcome(() => contract.render(argv))).toEqual(outcome(() => family?.render(argv)));
          for (const role of ['executable', 'selector'] as const) {
            expect(outcome(() => contract.assertCanonicalPath(path, role))).toEqual(
              outcome(() => family?.assertCanonicalPath(path, role)),
            );
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('checkStopEvent', () => {
  const contract = qualifiedContract(record());
  const payload = (fields: object) =>
    JSON.stringify({ hook_event_name: 'stop', status: 'completed', ...fields });

  it.each([
    ['the qualified build', payload({ cursor_version: VERSION }), 'qualified'],
    ['an updated build', payload({ cursor_version: '3.41.0' }), 'version-differs'],
    ['no version', payload({}), 'version-missing'],
    [
      'another event',
      payload({ hook_event_name: 'afterFileEdit', cursor_version: VERSION }),
      'not-stop',
    ],
    ['not JSON', '{', 'payload-unreadable'],
    ['an array', '[]', 'payload-unreadable'],
    ['oversized input', ' '.repeat(1024 * 1024 + 1), 'payload-unreadable'],
  ])('says %s is %s (red: the observer cannot tell when to re-qualify)', (_, stdin, verdict) => {
    const check = checkStopEvent(stdin, contract);
    expect(check.verdict).toBe(verdict);
    expect(check.qualified).toBe(verdict === 'qualified');
    expect(check.expected).toBe(VERSION);
  });

  it('reads bytes as strict UTF-8 and never throws on hostile input (red: an observer crashes on a bad payload)', () => {
    expect(
      checkStopEvent(new TextEncoder().encode(payload({ cursor_version: VERSION })), contract)
        .qualified,
    ).toBe(true);
    expect(checkStopEvent(new Uint8Array([0xff, 0xfe]), contract).verdict).toBe(
      'payload-unreadable',
    );
    expect(checkStopEvent(undefined as unknown as string, contract).verdict).toBe(
      'payload-unreadable',
    );
    const broken = {
      ...contract,
      get evidence(): never {
        throw new Error('boom');
      },
    };
    expect(checkStopEvent(payload({ cursor_version: VERSION }), broken).qualified).toBe(false);
  });
});
