// The fs seam a crash child runs with: the real one, except that the process SIGKILLs itself
// just before its Nth mutating call. Injected here, in test code; the kit has no switch for it.
import { constants } from 'node:fs';
import type { FsSeam } from '../../../src/node/write/fs-seam.js';
import { nodeFs } from '../../../src/node/write/fs-seam.js';

/**
 * Calls that change what another process can see or what survives a crash. Left out by
 * default: mkdir and rmdir (the operation suites' directories exist and stay), close, fchmod and
 * fchown (on a temp file nobody reads yet).
 */
const ALWAYS = ['rename', 'link', 'unlink', 'fsync'];
/** Calls that matter only on a file this run created. */
const ON_CREATED = new Set(['write']);

export function killingSeam(
  killAt: number,
  alsoMutating: readonly (keyof FsSeam)[] = [],
): { fs: FsSeam; count: () => number } {
  const always = new Set<string>([...ALWAYS, ...alsoMutating]);
  let calls = 0;
  const created = new WeakSet<object>();
  const fs: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(nodeFs)) {
    fs[name] = async (...args: unknown[]) => {
      const creates = name === 'open' && ((args[1] as number) & constants.O_CREAT) !== 0;
      const mutating =
        creates || always.has(name) || (ON_CREATED.has(name) && created.has(args[0] as object));
      if (mutating && ++calls === killAt) process.kill(process.pid, 'SIGKILL');
      const result = await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
      if (creates) created.add(result as object);
      return result;
    };
  }
  return { fs: fs as unknown as FsSeam, count: () => calls };
}
