import {
  createPlannerContainer,
  HookPlanner,
  Operation,
  type QualificationEvidence,
  SHELL_CONTRACT,
  type ShellContract,
} from 'cursorhooks';
import { describe, expect, it } from 'vitest';
import { mock } from 'vitest-mock-extended';

const evidence: QualificationEvidence = {
  client: 'test double',
  version: '0',
  platform: 'any',
  arch: null,
  date: null,
  run: null,
  observed: [],
  notObserved: ['everything: this contract exists only in tests'],
  artifacts: [],
};

describe('my installer', () => {
  it('asks the shell contract to render exactly the stop argv, or it installs another command', () => {
    const contract = mock<ShellContract>({ id: 'test-shell', evidence });
    contract.render.mockReturnValue('test-command');
    const container = createPlannerContainer();
    container.bind(SHELL_CONTRACT).toConstantValue(contract);

    const result = container.get(HookPlanner).plan({
      operation: Operation.Install,
      specs: [{ executable: '/opt/agent/bin/agent', selector: '/opt/agent/binding.json' }],
      shell: 'test-shell',
      executableVerified: true,
    });

    expect(result.error).toBeUndefined();
    expect(contract.render).toHaveBeenCalledWith([
      '/opt/agent/bin/agent',
      'cursor-event',
      'stop',
      '--binding',
      '/opt/agent/binding.json',
    ]);
    expect(new TextDecoder().decode(result.desired)).toContain('"command": "test-command"');
  });
});
