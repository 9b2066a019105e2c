import { Container } from 'inversify';
import { BUILTIN_CONTRACTS } from '../../contracts/builtin.js';
import { SHELL_CONTRACT } from '../shell/contract.js';
import { ShellContractRegistry } from '../shell/registry.js';
import { HookPlanner } from './hook-planner.js';

/**
 * A container with the planner, the registry and the three built-in contracts. Hosts may bind
 * more contracts to SHELL_CONTRACT before the first `get(HookPlanner)`; singletons fix the
 * registry from then on.
 */
export function createPlannerContainer(): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  for (const contract of BUILTIN_CONTRACTS) container.bind(SHELL_CONTRACT).to(contract);
  container.bind(ShellContractRegistry).toSelf();
  container.bind(HookPlanner).toSelf();
  return container;
}
