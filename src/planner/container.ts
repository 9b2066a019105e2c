import 'reflect-metadata';
import {
  type BindToFluentSyntax,
  Container,
  decorate,
  inject,
  injectable,
  multiInject,
  type ServiceIdentifier,
} from 'inversify';
import { BUILTIN_CONTRACTS } from '../../contracts/builtin.js';
import { ConflictError } from '../errors/errors.js';
import { SHELL_CONTRACT } from '../shell/contract.js';
import { ShellContractRegistry } from '../shell/registry.js';
import { HookPlanner } from './hook-planner.js';

// The classes stay free of decorators so that code which never asks for a container (the CLI,
// the module-level functions) never loads inversify. They become injectable here, once.
// Tokens are named explicitly: the test transform emits no decorator metadata to infer them.
decorate(injectable(), ShellContractRegistry);
decorate(multiInject(SHELL_CONTRACT), ShellContractRegistry, 0);
decorate(injectable(), HookPlanner);
decorate(inject(ShellContractRegistry), HookPlanner, 0);
for (const contract of BUILTIN_CONTRACTS) decorate(injectable(), contract);

/**
 * Refuses to change SHELL_CONTRACT once the registry is built. The registry is fixed when the
 * first planner is resolved, so a later binding would be silently unseen by every planner.
 */
class PlannerContainer extends Container {
  #registryBuilt = false;

  constructor() {
    super({ defaultScope: 'Singleton' });
    super
      .bind(ShellContractRegistry)
      .toSelf()
      .onActivation((_context, registry) => {
        this.#registryBuilt = true;
        return registry;
      });
  }

  override bind<T>(serviceIdentifier: ServiceIdentifier<T>): BindToFluentSyntax<T> {
    this.#refuseLateContract(serviceIdentifier);
    return super.bind(serviceIdentifier);
  }

  override rebind<T>(serviceIdentifier: ServiceIdentifier<T>): BindToFluentSyntax<T> {
    this.#refuseLateContract(serviceIdentifier);
    return super.rebind(serviceIdentifier);
  }

  override rebindAsync<T>(serviceIdentifier: ServiceIdentifier<T>): Promise<BindToFluentSyntax<T>> {
    this.#refuseLateContract(serviceIdentifier);
    return super.rebindAsync(serviceIdentifier);
  }

  #refuseLateContract(serviceIdentifier: ServiceIdentifier): void {
    if (this.#registryBuilt && serviceIdentifier === SHELL_CONTRACT) {
      throw new ConflictError('shell-contract-late');
    }
  }
}

/**
 * A container with the planner, the registry and the three built-in contracts. Hosts may bind
 * more contracts to SHELL_CONTRACT before the first `get(HookPlanner)`; singletons fix the
 * registry from then on, and binding another contract afterwards throws `shell-contract-late`.
 */
export function createPlannerContainer(): Container {
  const container = new PlannerContainer();
  for (const contract of BUILTIN_CONTRACTS) container.bind(SHELL_CONTRACT).to(contract);
  container.bind(HookPlanner).toSelf();
  return container;
}
