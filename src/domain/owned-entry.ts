import { canonicalString } from '../json/canonical.js';
import { digestOfCanonical } from '../json/digest.js';
import type { ShellContract } from '../shell/contract.js';
import { renderThrough } from '../shell/render.js';
import { stopArgv } from '../shell/stop-invocation.js';
import type { HookSpec } from './hook-spec.js';

/**
 * The four members of the owned native entry, in the order they are written. A type alias,
 * not an interface, so it is assignable to the plain-JSON writer's index signature.
 */
export type OwnedEntryValue = {
  readonly type: 'command';
  readonly command: string;
  readonly timeout: 5;
  readonly failClosed: false;
};

/**
 * The canonical form (SPEC §5) of the owned entry: its four members in key order. The entry's
 * shape is fixed, so its form is written out here rather than parsed back from JSON; a test
 * holds it equal to the canonical form of the same entry read from a document.
 */
function canonicalEntry(command: string): string {
  return `{"command":${canonicalString(command)},"failClosed":false,"timeout":5,"type":"command"}`;
}

/** The one entry this library owns, rendered from a spec through a qualified contract. */
export class OwnedEntry {
  private constructor(
    readonly value: OwnedEntryValue,
    /** Entry digest of the canonical form, as stored in receipts. */
    readonly digest: string,
  ) {
    Object.freeze(this);
  }

  /** Command identity: the decoded command string. */
  get command(): string {
    return this.value.command;
  }

  /** Both paths pass the contract's canonical-path rules before the argv is rendered. */
  static render(spec: HookSpec, contract: ShellContract): OwnedEntry {
    contract.assertCanonicalPath(spec.executable, 'executable');
    contract.assertCanonicalPath(spec.selector, 'selector');
    const command = renderThrough(contract, stopArgv(spec.executable, spec.selector));
    const value: OwnedEntryValue = Object.freeze({
      type: 'command',
      command,
      timeout: 5,
      failClosed: false,
    });
    return new OwnedEntry(value, digestOfCanonical('entry', canonicalEntry(command)));
  }
}
