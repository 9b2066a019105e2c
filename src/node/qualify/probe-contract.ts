// The contract the probe entry is installed with: the family's grammar, rendering the stop
// invocation followed by the probe's extra tokens, so one recorded run tests every token class
// the grammar claims. Known only to the probe's own planner; its evidence says it proves nothing.
import { plannerWith } from '../../planner/default.js';
import type { HookPlanner } from '../../planner/hook-planner.js';
import type { PathRole, ShellContract } from '../../shell/contract.js';
import { freezeEvidence } from '../../shell/evidence.js';
import type { GrammarFamily } from '../../shell/families.js';

export function probeContractId(family: GrammarFamily): string {
  return `cursorhooks-probe.${family.id}`;
}

export function probeContract(family: GrammarFamily, extra: readonly string[]): ShellContract {
  return Object.freeze({
    id: probeContractId(family),
    family: family.id,
    evidence: freezeEvidence({
      client: 'cursorhooks qualification probe',
      version: 'unqualified',
      platform: family.platform,
      arch: null,
      date: null,
      run: null,
      observed: [],
      notObserved: ['anything: a probe entry exists to be recorded, it qualifies nothing'],
      artifacts: [],
    }),
    assertCanonicalPath: (path: string, role: PathRole) => family.assertCanonicalPath(path, role),
    render: (argv: readonly string[]) => family.render([...argv, ...extra]),
  });
}

export function probePlanner(family: GrammarFamily, extra: readonly string[]): HookPlanner {
  return plannerWith([probeContract(family, extra)]);
}
