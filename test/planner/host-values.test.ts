// SPEC §9: every value the host passes is read once, into plain values, before any check.
// Getters that throw or change, Proxies and Array subclasses with their own `map` or iterator
// can never make a check and the rendering see different data, and `plan` never throws.
import { injectable } from 'inversify';
import { describe, expect, it } from 'vitest';
import * as barrel from '../../src/index.js';
import {
  createPlannerContainer,
  HookPlanner,
  LinuxUserShell32212,
  Operation,
  type PlanRequest,
  plan,
  type QualificationEvidence,
  Receipt,
  renderArgv,
  SHELL_CONTRACT,
  type ShellContract,
  UnsupportedError,
  WindowsPowerShellStop20261001,
} from '../../src/index.js';
import { TEST_EVIDENCE, thrownBy, utf8 } from '../support/common.js';
import { expectBytes, expectError, installed, SPEC, WRITE } from './support.js';

const DOCUMENT = utf8('{"version":1,"hooks":{"stop":[]}}\n');
const POSIX_ARGV = ['/opt/agent/bin/agent', 'cursor-event', 'stop', '--binding', '/b.json'];
const WINDOWS_ARGV = ['C:\\a\\x.exe', 'cursor-event', 'stop', '--binding', 'C:\\b.json'];

function boom(): never {
  throw new Error('host getter failed');
}

/** A request whose `field` getter throws, every other field valid. */
function throwingField(field: keyof PlanRequest): PlanRequest {
  const request: Record<string, unknown> = {
    document: DOCUMENT,
    operation: Operation.Install,
    ...WRITE,
  };
  delete request[field];
  Object.defineProperty(request, field, { get: boom, enumerable: true });
  return request as unknown as PlanRequest;
}

/** A Uint8Array whose `length` getter throws. */
class LengthThrows extends Uint8Array {
  override get length(): number {
    return boom();
  }
}

describe('plan reads the document once and never throws', () => {
  it('plans on a Uint8Array whose length getter throws, or plan throws out of its refusal path', () => {
    const document = new LengthThrows(DOCUMENT);
    const result = plan({ document, operation: Operation.Install, ...WRITE });
    expect(result.conflict).toBe(false);
    expect(result.desired).not.toBe(document);
  });

  it('refuses such an array with its bytes back when a later field fails, or plan throws', () => {
    const document = new LengthThrows(DOCUMENT);
    const result = plan({ document, operation: 'nope' as Operation, ...WRITE });
    expectError(result.error, 'operation-unknown', 'conflict');
    expectBytes(result.desired, DOCUMENT);
  });

  it('refuses a Proxy document as malformed, or its traps answer the checks', () => {
    const document = new Proxy(new Uint8Array(DOCUMENT), {});
    const result = plan({ document, operation: Operation.Install, ...WRITE });
    expectError(result.error, 'document-malformed', 'conflict');
  });

  it('ignores an own `length` property on the document, or checks and edits see different sizes', () => {
    const document = new Uint8Array(DOCUMENT);
    Object.defineProperty(document, 'length', { value: 3 });
    const result = plan({ document, operation: Operation.Install, ...WRITE });
    expect(result.conflict).toBe(false);
    expect(new TextDecoder().decode(result.desired)).toContain('"command"');
  });

  it.each(['operation', 'specs', 'shell', 'executableVerified', 'previous'] as const)(
    'returns the input bytes when the %s getter throws, or a host writing `desired` empties the file',
    (field) => {
      const result = plan(throwingField(field));
      expect(result.conflict).toBe(true);
      expectBytes(result.desired, DOCUMENT);
    },
  );

  it('returns the input bytes when a Proxy `specs` throws on every read, or the file is emptied', () => {
    const specs = new Proxy([SPEC], { get: boom, getPrototypeOf: boom });
    const result = plan({ document: DOCUMENT, operation: Operation.Install, ...WRITE, specs });
    expect(result.conflict).toBe(true);
    expectBytes(result.desired, DOCUMENT);
  });

  it('returns empty bytes only when the document itself cannot be read, or a refusal invents content', () => {
    const result = plan(throwingField('document'));
    expect(result.conflict).toBe(true);
    expect(result.desired.length).toBe(0);
  });
});

/** An argv that shows `shown` to index reads and `rendered` to `map` and iteration. */
class TwoFaced extends Array<string> {
  static make(shown: readonly string[], rendered: readonly string[]): TwoFaced {
    const argv = new TwoFaced();
    argv.push(...shown);
    argv.rendered = rendered;
    return argv;
  }

  rendered: readonly string[] = [];

  override map<U>(fn: (value: string, index: number, array: string[]) => U): U[] {
    return [...this.rendered].map((value, index) => fn(value, index, this));
  }

  override [Symbol.iterator](): ArrayIterator<string> {
    return [...this.rendered][Symbol.iterator]();
  }

  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }
}

/** An argv whose element `at` reads `first` once, then `later` on every read after. */
function changing(argv: readonly string[], at: number, later: string): string[] {
  const copy = [...argv];
  let reads = 0;
  const first = copy[at];
  Object.defineProperty(copy, at, {
    get: () => (reads++ === 0 ? first : later),
    enumerable: true,
  });
  return copy;
}

describe('renderArgv snapshots argv once, for every contract', () => {
  it('renders the tokens its checks saw from an Array subclass with its own map, or a command substitution runs unquoted', () => {
    const argv = TwoFaced.make(POSIX_ARGV, ['$(touch /tmp/pwned)', ...POSIX_ARGV.slice(1)]);
    const command = renderArgv(LinuxUserShell32212, argv);
    expect(command).not.toContain('pwned');
    expect(command).toBe(renderArgv(LinuxUserShell32212, POSIX_ARGV));
  });

  it('reads each element once, or a getter puts a newline into the POSIX command after validation', () => {
    const argv = changing(POSIX_ARGV, 4, '/b.json\nrm -rf ~');
    expect(renderArgv(LinuxUserShell32212, argv)).toBe(renderArgv(LinuxUserShell32212, POSIX_ARGV));
  });

  it('reads each element once, or a getter puts a PowerShell closing quote into the Windows command', () => {
    const argv = changing(WINDOWS_ARGV, 4, 'C:\\b\u2019; calc.exe');
    expect(renderArgv(WindowsPowerShellStop20261001, argv)).toBe(
      renderArgv(WindowsPowerShellStop20261001, WINDOWS_ARGV),
    );
  });

  it('renders through a Proxy argv by one read per element, or its traps answer twice', () => {
    let reads = 0;
    const argv = new Proxy([...POSIX_ARGV], {
      get(target, key, receiver) {
        if (key === '0') reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    renderArgv(LinuxUserShell32212, argv);
    expect(reads).toBe(1);
  });

  it.each([
    ['a throwing element getter', changingThrows()],
    ['a Proxy whose length trap throws', new Proxy([...POSIX_ARGV], { get: boom })],
  ])('refuses %s as argv-malformed, or a host error escapes renderArgv', (_label, argv) => {
    const error = thrownBy(() => renderArgv(LinuxUserShell32212, argv));
    expect(error).toBeInstanceOf(UnsupportedError);
    expect((error as UnsupportedError).reason).toBe('argv-malformed');
  });

  it.each([LinuxUserShell32212, WindowsPowerShellStop20261001])(
    'refuses an empty argv on %s, or an empty command is rendered',
    (shell) => {
      const error = thrownBy(() => renderArgv(shell, []));
      expect(error).toBeInstanceOf(UnsupportedError);
      expect((error as UnsupportedError).reason).toBe('argv-empty');
    },
  );

  it('hands a host contract registered through the container a frozen plain array, or a host contract sees the two-faced argv', () => {
    const seen: unknown[] = [];
    @injectable()
    class Recording implements ShellContract {
      readonly id = 'host-recording';
      readonly evidence: QualificationEvidence = TEST_EVIDENCE;
      assertCanonicalPath(): void {}
      render(argv: readonly string[]): string {
        seen.push(argv);
        return argv.join(' ');
      }
    }
    const container = createPlannerContainer();
    container.bind(SHELL_CONTRACT).to(Recording);
    const planner = container.get(HookPlanner);
    const argv = TwoFaced.make(['a', 'b'], ['$(x)', 'b']);
    expect(planner.renderArgv('host-recording', argv)).toBe('a b');
    const [received] = seen;
    expect(Object.getPrototypeOf(received)).toBe(Array.prototype);
    expect(Object.isFrozen(received)).toBe(true);
    expect(received).toEqual(['a', 'b']);
  });
});

describe('the argv snapshot checks shape for host contracts too', () => {
  /** A host contract that renders whatever it is handed, so only the snapshot can refuse. */
  @injectable()
  class Permissive implements ShellContract {
    readonly id = 'host-permissive';
    readonly evidence: QualificationEvidence = TEST_EVIDENCE;
    assertCanonicalPath(): void {}
    render(argv: readonly string[]): string {
      return argv.join(' ');
    }
  }
  const container = createPlannerContainer();
  container.bind(SHELL_CONTRACT).to(Permissive);
  const planner = container.get(HookPlanner);
  const reasonFor = (argv: unknown) =>
    (thrownBy(() => planner.renderArgv('host-permissive', argv as string[])) as UnsupportedError)
      .reason;

  it.each([
    ['a string', 'a b'],
    ['an array-like object', { 0: 'a', length: 1 }],
    ['a non-string token', ['a', 7]],
    ['a hole', Array(2).fill('a', 1)],
    [
      'a Proxy with a non-number length',
      new Proxy(['a'], { get: (t, k) => (k === 'length' ? '1' : Reflect.get(t, k)) }),
    ],
  ])('refuses %s as argv-malformed, or a host contract renders it', (_label, argv) => {
    expect(reasonFor(argv)).toBe('argv-malformed');
  });

  it('accepts exactly MAX_ARGS tokens and refuses one more, or the count limit is off by one for host contracts', () => {
    expect(planner.renderArgv('host-permissive', Array(32).fill('a'))).toBe(
      Array(32).fill('a').join(' '),
    );
    expect(reasonFor(Array(33).fill('a'))).toBe('argv-too-many-tokens');
  });
});

function changingThrows(): string[] {
  const argv = [...POSIX_ARGV];
  Object.defineProperty(argv, 2, { get: boom });
  return argv;
}

describe('receipts are built only through validation', () => {
  it('offers no unvalidated factory on the public class, or a host builds a receipt with a numeric shell', () => {
    expect(Object.getOwnPropertyNames(Receipt).sort()).toEqual(
      ['fromJSON', 'length', 'name', 'prototype'].sort(),
    );
    expect(Object.getOwnPropertySymbols(Receipt)).toEqual([]);
    expect(Object.keys(barrel)).not.toContain('issueReceipt');
  });

  it('validates what the constructor is given, or a digest "nope" becomes a receipt', () => {
    const { receipt } = installed({ version: 1 });
    const json = { ...receipt.toJSON(), entryDigest: 'nope' };
    expect(() => new Receipt(json)).toThrow();
    expect(() => new Receipt({ ...receipt.toJSON(), shell: 7 as unknown as string })).toThrow();
  });
});
