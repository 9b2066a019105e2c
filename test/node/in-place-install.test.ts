// The whole install, with an editor saving in place while the writer swaps the hook file: the
// writer's file-changed makes runOperation plan again on the user's save.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { readStatus } from '../../src/node/status/status.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { operate, workspace } from './support.js';

const SAVED = '{"version":1,"hooks":{"stop":[{"command":"the user saved this"}]}}\n';

describe('an install racing an in-place save', () => {
  it("keeps the user's save and installs on top of it, or VS Code's save is silently lost", async () => {
    const where = workspace();
    writeFileSync(where.hooks, '{"version":1}\n');
    let saved = false;
    const fs: FsSeam = {
      ...nodeFs,
      rename: async (from, to) => {
        if (!saved && to === where.hooks) {
          saved = true;
          writeFileSync(where.hooks, SAVED);
        }
        await nodeFs.rename(from, to);
      },
    };
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome.status, outcome.error?.reason).toBe('done');
    const text = readFileSync(where.hooks, 'utf8');
    expect(text).toContain('the user saved this');
    expect(text).toContain('cursor-event');
    const status = await readStatus({ hooksFile: where.hooks, ledger: where.ledger });
    expect(status.owned).toMatchObject({ state: 'owned' });
  });
});
