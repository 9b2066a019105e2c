import 'reflect-metadata';
import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { mock } from 'vitest-mock-extended';
import { BUILTIN_CONTRACTS } from '../../contracts/builtin.js';
import { LinuxUserShellContract } from '../../contracts/linux-user-3.22.12.js';
import { ConflictError, UnsupportedError } from '../../src/errors/errors.js';
import { SHELL_CONTRACT, type ShellContract } from '../../src/shell/contract.js';
import {
  DarwinUserShell20260918,
  LinuxUserShell32212,
  WindowsPowerShellStop20261001,
  WindowsUnqualified,
} from '../../src/shell/ids.js';
import { ShellContractRegistry } from '../../src/shell/registry.js';
// Applies the inversify decorators that the plain registry and contract classes do not carry.
import '../../src/planner/container.js';
import { TEST_EVIDENCE } from '../support/common.js';
import { expectRefusal } from './refusal.js';

/** A fresh container with the given contracts bound, in order, plus the registry. */
function containerWith(...contracts: readonly unknown[]): Container {
  const container = new Container();
  for (const contract of contracts) {
    if (typeof contract === 'function') {
      container.bind(SHELL_CONTRACT).to(contract as new () => ShellContract);
    } else {
      container.bind(SHELL_CONTRACT).toConstantValue(contract as ShellContract);
    }
  }
  container.bind(ShellContractRegistry).toSelf();
  return container;
}

const builtinRegistry = () => containerWith(...BUILTIN_CONTRACTS).get(ShellContractRegistry);

function plainContract(id: unknown): unknown {
  return { id, evidence: TEST_EVIDENCE, assertCanonicalPath: () => {}, render: () => '' };
}

describe('ShellContractRegistry with the built-in contracts', () => {
  it('lists them in registration order, or host display order is unstable', () => {
    expect(
      builtinRegistry()
        .all()
        .map((contract) => contract.id),
    ).toEqual([LinuxUserShell32212, DarwinUserShell20260918, WindowsPowerShellStop20261001]);
  });

  it('returns a frozen list, or a host can add or drop contracts through all()', () => {
    const all = builtinRegistry().all();
    expect(Object.isFrozen(all)).toBe(true);
    expect(() => (all as ShellContract[]).push(all[0] as ShellContract)).toThrow(TypeError);
  });

  it.each([LinuxUserShell32212, DarwinUserShell20260918, WindowsPowerShellStop20261001])(
    'resolves %s to its contract, or a qualified shell is unusable',
    (id) => {
      expect(builtinRegistry().resolve(id).id).toBe(id);
    },
  );

  it.each([
    ['WindowsUnqualified', WindowsUnqualified],
    ['an unknown id', 'cursor-linux-user-9.99.99-single-quote'],
    ['an id in another case', LinuxUserShell32212.toUpperCase()],
    ['an empty id', ''],
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
    ['toString', 'toString'],
    ['hasOwnProperty', 'hasOwnProperty'],
    ['a number', 1],
    ['null', null],
    ['undefined', undefined],
    ['an object', { toString: () => LinuxUserShell32212 }],
    ['a boxed string', new String(LinuxUserShell32212)],
    ['a symbol', Symbol(LinuxUserShell32212)],
  ])('refuses %s as shell-unsupported, or an unqualified shell renders commands', (_label, id) => {
    const registry = builtinRegistry();
    expectRefusal(() => registry.resolve(id), UnsupportedError, 'shell-unsupported');
  });
});

describe('ShellContractRegistry refusing to build', () => {
  it('refuses two contracts with one id, or which one renders depends on binding order', () => {
    const container = containerWith(LinuxUserShellContract, plainContract(LinuxUserShell32212));
    expectRefusal(
      () => container.get(ShellContractRegistry),
      ConflictError,
      'shell-contract-duplicate',
    );
  });

  it('refuses the same class bound twice, or a double registration goes unnoticed', () => {
    const container = containerWith(...BUILTIN_CONTRACTS, LinuxUserShellContract);
    expectRefusal(
      () => container.get(ShellContractRegistry),
      ConflictError,
      'shell-contract-duplicate',
    );
  });

  it('refuses a contract claiming WindowsUnqualified with its own reason, or the unqualified id becomes usable', () => {
    const container = containerWith(plainContract(WindowsUnqualified));
    expectRefusal(
      () => container.get(ShellContractRegistry),
      ConflictError,
      'shell-contract-unqualified',
    );
  });

  const valid = plainContract('host-shell') as Record<string, unknown>;
  it.each([
    ['an empty id', { ...valid, id: '' }],
    ['a numeric id', { ...valid, id: 7 }],
    ['a missing id', { ...valid, id: undefined }],
    ['null evidence', { ...valid, evidence: null }],
    ['string evidence', { ...valid, evidence: 'qualified' }],
    ['array evidence', { ...valid, evidence: [] }],
    ['no render', { ...valid, render: undefined }],
    ['a non-function render', { ...valid, render: 'echo' }],
    ['no assertCanonicalPath', { ...valid, assertCanonicalPath: undefined }],
    ['a string', 'host-shell'],
  ])(
    'refuses a contract with %s, or a malformed plugin fails later mid-plan',
    (_label, contract) => {
      const container = containerWith(contract);
      expectRefusal(
        () => container.get(ShellContractRegistry),
        ConflictError,
        'shell-contract-invalid',
      );
    },
  );
});

describe('ShellContractRegistry with host plugins', () => {
  it('accepts a vitest-mock-extended mock bound with toConstantValue, or hosts cannot stub a shell', () => {
    const host = mock<ShellContract>({ id: 'host-mock-shell', evidence: TEST_EVIDENCE });
    host.render.mockReturnValue('rendered by the mock');
    const registry = containerWith(...BUILTIN_CONTRACTS, host).get(ShellContractRegistry);
    const resolved = registry.resolve('host-mock-shell');
    expect(resolved).toBe(host);
    expect(resolved.render(['a'])).toBe('rendered by the mock');
    expect(registry.all().at(-1)).toBe(host);
  });

  it('keeps the id read at registration, or a contract can later re-point its id', () => {
    let id = 'first-id';
    const shifty = {
      get id() {
        return id;
      },
      evidence: TEST_EVIDENCE,
      assertCanonicalPath: () => {},
      render: () => '',
    };
    const registry = containerWith(shifty).get(ShellContractRegistry);
    id = LinuxUserShell32212;
    expect(registry.resolve('first-id')).toBe(shifty);
    expectRefusal(
      () => registry.resolve(LinuxUserShell32212),
      UnsupportedError,
      'shell-unsupported',
    );
  });
});
