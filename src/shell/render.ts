import { ConflictError, CursorHooksError, UnsupportedError } from '../errors/errors.js';
import { MAX_ARGS } from '../limits.js';
import type { ShellContract } from './contract.js';

/**
 * The one way argv reaches a contract, built-in or registered by a host: argv is first read
 * once into a frozen array of plain strings, so the contract's checks and its rendering see
 * the same tokens whatever the host passed (an Array subclass with its own `map` or iterator,
 * element getters that change, a Proxy).
 */
export function renderThrough(contract: ShellContract, argv: unknown): string {
  const command: unknown = contract.render(snapshotArgv(argv));
  if (typeof command !== 'string') throw new ConflictError('shell-contract-invalid');
  return command;
}

/**
 * Length read once, then each element once by index (never through `map` or an iterator).
 * A read that throws is malformed argv; an empty argv names nothing to run.
 */
export function snapshotArgv(argv: unknown): readonly string[] {
  try {
    if (!Array.isArray(argv)) throw new UnsupportedError('argv-malformed');
    const length: unknown = argv.length;
    if (typeof length !== 'number') throw new UnsupportedError('argv-malformed');
    // Checked before touching any element, so a huge array costs nothing.
    if (length > MAX_ARGS) throw new UnsupportedError('argv-too-many-tokens');
    if (length === 0) throw new UnsupportedError('argv-empty');
    const tokens: string[] = [];
    for (let i = 0; i < length; i++) {
      const token: unknown = argv[i];
      if (typeof token !== 'string') throw new UnsupportedError('argv-malformed');
      tokens.push(token);
    }
    return Object.freeze(tokens);
  } catch (err) {
    if (err instanceof CursorHooksError) throw err;
    throw new UnsupportedError('argv-malformed');
  }
}
