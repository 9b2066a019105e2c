import { ConflictError, UnsupportedError } from '../errors/errors.js';
import type { ShellContract } from './contract.js';
import { WindowsUnqualified } from './ids.js';

/**
 * The registered shell contracts, checked once when the container builds it. Lookups go through
 * a Map keyed by the id read at registration, so inherited object keys (`__proto__`,
 * `constructor`) can never resolve and a contract cannot change its id afterwards.
 */
export class ShellContractRegistry {
  readonly #byId = new Map<string, ShellContract>();
  readonly #all: readonly ShellContract[];

  constructor(contracts: readonly ShellContract[]) {
    for (const contract of contracts) {
      const id = assertContractShape(contract);
      if (this.#byId.has(id)) throw new ConflictError('shell-contract-duplicate');
      this.#byId.set(id, contract);
    }
    this.#all = Object.freeze([...contracts]);
  }

  /**
   * The contract registered under `id`; anything else is `shell-unsupported`. That includes
   * WindowsUnqualified, which the constructor never lets in.
   */
  resolve(id: unknown): ShellContract {
    const contract = typeof id === 'string' ? this.#byId.get(id) : undefined;
    if (contract === undefined) throw new UnsupportedError('shell-unsupported');
    return contract;
  }

  /** Every contract in registration order, for host display. */
  all(): readonly ShellContract[] {
    return this.#all;
  }
}

/** Returns the contract's id once its shape is right; a plugin is host code, so check it. */
function assertContractShape(contract: unknown): string {
  if (typeof contract !== 'object' || contract === null) {
    throw new ConflictError('shell-contract-invalid');
  }
  const { id, evidence, assertCanonicalPath, render } = contract as Partial<ShellContract>;
  // The unqualified id names a refusal; registering it would turn the refusal into a grammar.
  if (id === WindowsUnqualified) throw new ConflictError('shell-contract-unqualified');
  const valid =
    typeof id === 'string' &&
    id.length > 0 &&
    typeof evidence === 'object' &&
    evidence !== null &&
    !Array.isArray(evidence) &&
    typeof assertCanonicalPath === 'function' &&
    typeof render === 'function';
  if (!valid) throw new ConflictError('shell-contract-invalid');
  return id;
}
