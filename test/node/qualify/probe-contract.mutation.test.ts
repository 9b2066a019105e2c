// The probe contract built on a family: its id, evidence, path checks and rendering, and the
// planner that knows it.
import { describe, expect, it } from 'vitest';
import {
  probeContract,
  probeContractId,
  probePlanner,
} from '../../../src/node/qualify/probe-contract.js';
import { Operation } from '../../../src/planner/operation.js';
import { family } from './support.js';

const POSIX = family('posix-single-quote');
const WINDOWS = family('powershell-stop');

describe('probeContract', () => {
  it('is named after the family and proves nothing, frozen (red: the probe passes for a qualified contract)', () => {
    expect(probeContractId(POSIX)).toBe('cursorhooks-probe.posix-single-quote');
    const contract = probeContract(POSIX, ['x']);
    expect(contract.id).toBe('cursorhooks-probe.posix-single-quote');
    expect(contract.family).toBe('posix-single-quote');
    expect(contract.evidence).toStrictEqual({
      client: 'cursorhooks qualification probe',
      version: 'unqualified',
      platform: 'posix',
      arch: null,
      date: null,
      run: null,
      observed: [],
      notObserved: ['anything: a probe entry exists to be recorded, it qualifies nothing'],
      artifacts: [],
    });
    expect(Object.isFrozen(contract)).toBe(true);
    expect(Object.isFrozen(contract.evidence.notObserved)).toBe(true);
    expect(probeContract(WINDOWS, []).evidence.platform).toBe('windows');
  });

  it('renders the argv followed by the extra tokens, and checks paths as its family does (red: the tokens are lost, or any path passes)', () => {
    const contract = probeContract(POSIX, ['', "it's"]);
    expect(contract.render(['/opt/rec', 'stop'])).toBe(
      POSIX.render(['/opt/rec', 'stop', '', "it's"]),
    );
    expect(() => contract.assertCanonicalPath('/opt/rec', 'executable')).not.toThrow();
    expect(() => contract.assertCanonicalPath('relative/rec', 'executable')).toThrow();
    expect(() => contract.assertCanonicalPath('/opt/../rec', 'selector')).toThrow();
  });

  it('its planner knows the probe contract and installs with it (red: the planner lacks the probe)', () => {
    const planner = probePlanner(POSIX, ['extra token']);
    const ids = planner.contracts().map((contract) => contract.id);
    expect(ids).toContain('cursorhooks-probe.posix-single-quote');
    const planned = planner.plan({
      operation: Operation.Install,
      specs: [{ executable: '/opt/rec', selector: '/etc/b.json' }],
      shell: 'cursorhooks-probe.posix-single-quote',
      executableVerified: true,
    });
    expect(planned.error).toBeUndefined();
    expect(new TextDecoder().decode(planned.desired)).toContain('extra token');
  });
});
