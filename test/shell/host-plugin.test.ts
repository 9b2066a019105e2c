// The host plugin flow (SPEC §2 plugins): a host builds its own container, binds a contract of
// its own to SHELL_CONTRACT before the first get(HookPlanner), and plans through it. Everything
// comes from the public barrel, as a host would import it.
import { type Container, injectable } from 'inversify';
import { describe, expect, it } from 'vitest';
import { type MockProxy, mock } from 'vitest-mock-extended';
import {
  AbsenceUnprovenError,
  ConflictError,
  type CursorHooksError,
  createPlannerContainer,
  DarwinUserShell20260918,
  errorIs,
  HookPlanner,
  LinuxUserShell32212,
  Operation,
  type PlanResult,
  plan,
  type QualificationEvidence,
  renderArgv,
  SHELL_CONTRACT,
  type ShellContract,
  UnsupportedError,
  verifyOwned,
  WindowsPowerShellStop20261001,
  WindowsUnqualified,
} from '../../src/index.js';
import { thrownBy } from '../support/common.js';

type PathRole = Parameters<ShellContract['assertCanonicalPath']>[1];

const HOST_ID = 'cursor-linux-user-3.23.0-single-quote';
const MOCK_ID = 'host-mock-contract';
const BUILTIN_IDS = [LinuxUserShell32212, DarwinUserShell20260918, WindowsPowerShellStop20261001];

const EXECUTABLE = '/opt/agent/bin/agent';
const SELECTOR = "/home/o'brien/hooks binding.json";
const STOP_ARGV = [EXECUTABLE, 'cursor-event', 'stop', '--binding', SELECTOR];

/** A fresh record each time: vitest-mock-extended wraps (and writes into) what it is given. */
function hostEvidence(): QualificationEvidence {
  return {
    client: 'Cursor IDE',
    version: '3.23.0',
    platform: 'linux',
    arch: 'x64',
    date: null,
    run: 'host qualification run',
    observed: ['the host re-qualified single-quoted argv'],
    notObserved: ['anything else'],
    artifacts: [],
  };
}

/**
 * A fictional host-qualified contract with a rendering no built-in produces: `'\''` for an
 * apostrophe and two spaces between tokens.
 */
@injectable()
class HostSingleQuoteContract implements ShellContract {
  readonly id: string = HOST_ID;
  readonly evidence: QualificationEvidence = hostEvidence();

  assertCanonicalPath(path: string, _role: PathRole): void {
    if (!path.startsWith('/')) throw new UnsupportedError('path-not-absolute');
  }

  render(argv: readonly string[]): string {
    return argv.map((token) => `'${token.replaceAll("'", "'\\''")}'`).join('  ');
  }
}

const HOST_COMMAND =
  "'/opt/agent/bin/agent'  'cursor-event'  'stop'  '--binding'  '/home/o'\\''brien/hooks binding.json'";

/** Another contract class claiming an id; used for duplicate and reserved ids. */
function contractClaiming(id: string): new () => ShellContract {
  @injectable()
  class Claiming extends HostSingleQuoteContract {
    override readonly id = id;
  }
  return Claiming;
}

function hostContainer(): Container {
  const container = createPlannerContainer();
  container.bind(SHELL_CONTRACT).to(HostSingleQuoteContract);
  return container;
}

function installWith(planner: { plan: typeof plan }, shell: string): PlanResult {
  return planner.plan({
    operation: Operation.Install,
    specs: [{ executable: EXECUTABLE, selector: SELECTOR }],
    shell,
    executableVerified: true,
  });
}

function commandOf(result: PlanResult): unknown {
  const document: unknown = JSON.parse(new TextDecoder().decode(result.desired));
  const stop = (document as { hooks?: { stop?: readonly { command?: unknown }[] } }).hooks?.stop;
  return stop?.[0]?.command;
}

function expectPlanRefused(result: PlanResult, reason: string): CursorHooksError {
  expect(result.error?.reason).toBe(reason);
  expect(result.conflict).toBe(true);
  expect(result.receipt).toBeUndefined();
  expect(result.noOp).toBe(true);
  expect(errorIs(result.error, ConflictError)).toBe(true);
  if (result.error === undefined) throw new Error('unreachable: the reason was checked');
  return result.error;
}

function expectGetRefused(container: Container, reason: string): void {
  const error = thrownBy(() => container.get(HookPlanner));
  expect(error, 'get(HookPlanner) must throw').toBeInstanceOf(ConflictError);
  expect((error as CursorHooksError).reason).toBe(reason);
}

/** Every string an error exposes: message, reason, stack, own properties, along its causes. */
function everythingSaidBy(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    parts.push(String(current), JSON.stringify(current));
    for (const key of Object.getOwnPropertyNames(current)) {
      parts.push(key, String((current as unknown as Record<string, unknown>)[key]));
    }
    current = current.cause;
  }
  return parts.join('\n');
}

function mockContract(): MockProxy<ShellContract> & ShellContract {
  return mock<ShellContract>({ id: MOCK_ID, evidence: hostEvidence() });
}

function mockPlanner(contract: ShellContract): HookPlanner {
  const container = createPlannerContainer();
  container.bind(SHELL_CONTRACT).toConstantValue(contract);
  return container.get(HookPlanner);
}

describe('a host contract class bound to SHELL_CONTRACT', () => {
  it('plans with the host rendering, or host plugins cannot extend the qualified grammars', () => {
    const planner = hostContainer().get(HookPlanner);
    const result = installWith(planner, HOST_ID);
    expect(result.error).toBeUndefined();
    expect(commandOf(result)).toBe(HOST_COMMAND);
    expect(JSON.parse(new TextDecoder().decode(result.desired))).toEqual({
      version: 1,
      hooks: {
        stop: [{ type: 'command', command: HOST_COMMAND, timeout: 5, failClosed: false }],
      },
    });
    expect(result.receipt?.shell).toBe(HOST_ID);
    expect(result.receipt?.spec).toEqual({ executable: EXECUTABLE, selector: SELECTOR });
    expect(planner.renderArgv(HOST_ID, STOP_ARGV)).toBe(HOST_COMMAND);
  });

  it('verifies and repairs its own entry, or a host receipt cannot be used after install', () => {
    const planner = hostContainer().get(HookPlanner);
    const installed = installWith(planner, HOST_ID);
    if (installed.receipt === undefined) throw new Error('install refused');
    const receipt = installed.receipt;
    expect(() => planner.verifyOwned(installed.desired, receipt)).not.toThrow();
    expect(() => planner.verifyOwned(installed.desired, receipt.toJSON())).not.toThrow();
    const repaired = planner.plan({
      document: installed.desired,
      operation: Operation.Repair,
      previous: receipt.toJSON(),
      executableVerified: true,
    });
    expect(repaired.error).toBeUndefined();
    expect(repaired.noOp).toBe(true);
    expect(repaired.receipt?.toJSON()).toEqual(receipt.toJSON());
  });

  it('lists the three built-ins then the host contract, or host display order is unstable', () => {
    const contracts = hostContainer().get(HookPlanner).contracts();
    expect(contracts.map((contract) => contract.id)).toEqual([...BUILTIN_IDS, HOST_ID]);
    expect(contracts[3]).toBeInstanceOf(HostSingleQuoteContract);
    expect(contracts[3]?.evidence).toEqual(hostEvidence());
  });

  it('is unseen by the module-level functions, or one host leaks its grammar into all', () => {
    const installed = installWith(hostContainer().get(HookPlanner), HOST_ID);
    if (installed.receipt === undefined) throw new Error('install refused');
    const receipt = installed.receipt;

    const refused = expectPlanRefused(installWith({ plan }, HOST_ID), 'shell-unsupported');
    expect(errorIs(refused, UnsupportedError)).toBe(true);

    const verifyError = thrownBy(() => verifyOwned(installed.desired, receipt));
    expect(verifyError, 'verifyOwned must throw').toBeInstanceOf(ConflictError);
    expect((verifyError as CursorHooksError).reason).toBe('shell-unsupported');

    const renderError = thrownBy(() => renderArgv(HOST_ID, STOP_ARGV));
    expect(renderError, 'renderArgv must throw').toBeInstanceOf(UnsupportedError);
    expect((renderError as CursorHooksError).reason).toBe('shell-unsupported');
  });

  it('is unseen by another container, or containers share registrations', () => {
    hostContainer().get(HookPlanner);
    const other = createPlannerContainer().get(HookPlanner);
    expect(other.contracts().map((contract) => contract.id)).toEqual(BUILTIN_IDS);
    expectPlanRefused(installWith(other, HOST_ID), 'shell-unsupported');
  });

  it('is refused when bound after the first get, or a late contract is silently unseen by the planner', () => {
    const container = createPlannerContainer();
    const planner = container.get(HookPlanner);
    for (const late of [
      () => container.bind(SHELL_CONTRACT).to(HostSingleQuoteContract),
      () => container.rebind(SHELL_CONTRACT).to(HostSingleQuoteContract),
      () => container.rebindAsync(SHELL_CONTRACT),
    ]) {
      const error = thrownBy(late);
      expect(error, 'a late binding must throw').toBeInstanceOf(ConflictError);
      expect((error as CursorHooksError).reason).toBe('shell-contract-late');
    }
    expect(planner.contracts().map((contract) => contract.id)).toEqual(BUILTIN_IDS);
    expect(container.get(HookPlanner)).toBe(planner);
  });

  it('still binds other services after the first get, or the late-contract guard is too broad', () => {
    const container = createPlannerContainer();
    container.get(HookPlanner);
    container.bind('host-service').toConstantValue(1);
    expect(container.get('host-service')).toBe(1);
  });
});

describe('a vitest-mock-extended contract bound with toConstantValue', () => {
  it('is asked to render exactly the five stop tokens once, or the planner renders another argv', () => {
    const contract = mockContract();
    contract.render.mockReturnValue("'mock command'");
    const result = installWith(mockPlanner(contract), MOCK_ID);
    expect(result.error).toBeUndefined();
    expect(commandOf(result)).toBe("'mock command'");
    expect(result.receipt?.shell).toBe(MOCK_ID);
    expect(contract.render).toHaveBeenCalledTimes(1);
    expect(contract.render.mock.calls).toEqual([[STOP_ARGV]]);
  });

  it('checks both paths with their roles before rendering, or an unchecked path is rendered', () => {
    const contract = mockContract();
    contract.render.mockReturnValue("'mock command'");
    installWith(mockPlanner(contract), MOCK_ID);
    expect(contract.assertCanonicalPath.mock.calls).toEqual([
      [EXECUTABLE, 'executable'],
      [SELECTOR, 'selector'],
    ] satisfies [string, PathRole][]);
    const lastCheck = Math.max(...contract.assertCanonicalPath.mock.invocationCallOrder);
    const [render] = contract.render.mock.invocationCallOrder;
    expect(render).toBeGreaterThan(lastCheck);
  });

  it('refuses with the path reason and renders nothing, or a refused path still reaches the file', () => {
    const contract = mockContract();
    contract.assertCanonicalPath.mockImplementation(() => {
      throw new UnsupportedError('path-not-absolute');
    });
    contract.render.mockReturnValue("'mock command'");
    const result = installWith(mockPlanner(contract), MOCK_ID);
    const error = expectPlanRefused(result, 'path-not-absolute');
    expect(errorIs(error, UnsupportedError)).toBe(true);
    expect(errorIs(error, AbsenceUnprovenError)).toBe(false);
    expect(result.desired).toEqual(new Uint8Array(0));
    expect(contract.render).not.toHaveBeenCalled();
  });

  it('turns a plain Error from render into unexpected-failure without its text, or plugin errors leak', () => {
    const contract = mockContract();
    contract.render.mockImplementation(() => {
      throw new Error('secret /path/of/the/host');
    });
    const result = installWith(mockPlanner(contract), MOCK_ID);
    const error = expectPlanRefused(result, 'unexpected-failure');
    expect(errorIs(error, UnsupportedError)).toBe(false);
    expect(errorIs(error, AbsenceUnprovenError)).toBe(false);
    expect(error.cause).toBeUndefined();
    const said = everythingSaidBy(error);
    expect(said).not.toContain('secret');
    expect(said).not.toContain('/path/of/the/host');
    expect(result.desired).toEqual(new Uint8Array(0));
  });

  it('rebuilds a plugin UnsupportedError from its reason alone, or a plugin message reaches the host', () => {
    const contract = mockContract();
    contract.render.mockImplementation(() => {
      const error = new UnsupportedError('path-unc');
      Object.assign(error, { message: 'secret /home/host', detail: 'secret' });
      throw error;
    });
    const error = expectPlanRefused(installWith(mockPlanner(contract), MOCK_ID), 'path-unc');
    expect(errorIs(error, UnsupportedError)).toBe(true);
    expect(everythingSaidBy(error)).not.toContain('secret');
  });

  it('maps a reason outside the fixed table to unexpected-failure, or a plugin picks its own reason', () => {
    const contract = mockContract();
    contract.render.mockImplementation(() => {
      throw new UnsupportedError('secret /home/host' as never);
    });
    const error = expectPlanRefused(
      installWith(mockPlanner(contract), MOCK_ID),
      'unexpected-failure',
    );
    expect(everythingSaidBy(error)).not.toContain('secret');
  });

  it('refuses a render that returns no string, or undefined is written as the command', () => {
    const contract = mockContract(); // render is a bare mock: it returns undefined
    const error = expectPlanRefused(
      installWith(mockPlanner(contract), MOCK_ID),
      'shell-contract-invalid',
    );
    expect(errorIs(error, UnsupportedError)).toBe(false);
    expect(contract.render).toHaveBeenCalledTimes(1);
  });

  it('refuses to register a mock without evidence, or a half-built plugin is accepted', () => {
    const container = createPlannerContainer();
    container.bind(SHELL_CONTRACT).toConstantValue(mock<ShellContract>({ id: MOCK_ID }));
    expectGetRefused(container, 'shell-contract-invalid');
  });
});

describe('contract registration refusals', () => {
  it('refuses a second contract with the Linux id, or a host silently shadows a built-in', () => {
    const container = createPlannerContainer();
    container.bind(SHELL_CONTRACT).to(contractClaiming(LinuxUserShell32212));
    expectGetRefused(container, 'shell-contract-duplicate');
  });

  it('refuses two host contracts sharing an id, or the first or last one wins silently', () => {
    const container = hostContainer();
    container.bind(SHELL_CONTRACT).to(contractClaiming(HOST_ID));
    expectGetRefused(container, 'shell-contract-duplicate');
  });

  it('refuses a contract with the WindowsUnqualified id by its own reason, or the refusal id becomes a grammar', () => {
    const container = createPlannerContainer();
    container.bind(SHELL_CONTRACT).to(contractClaiming(WindowsUnqualified));
    expectGetRefused(container, 'shell-contract-unqualified');
  });

  it('refuses a contract with an empty id, or an omitted shell could select it', () => {
    const container = createPlannerContainer();
    container.bind(SHELL_CONTRACT).to(contractClaiming(''));
    expectGetRefused(container, 'shell-contract-invalid');
  });

  it.each([
    ['an unknown id', 'cursor-linux-user-9.9.9-single-quote'],
    ['the unqualified Windows id', WindowsUnqualified],
    ['a case variant of the host id', HOST_ID.toUpperCase()],
    ['an inherited object key', '__proto__'],
  ])(
    'refuses planning with %s as shell-unsupported, or an unqualified grammar is used',
    (_label, id) => {
      const error = expectPlanRefused(
        installWith(hostContainer().get(HookPlanner), id),
        'shell-unsupported',
      );
      expect(errorIs(error, UnsupportedError)).toBe(true);
      expect(errorIs(error, ConflictError)).toBe(true);
      expect(errorIs(error, AbsenceUnprovenError)).toBe(false);
    },
  );
});
