// A hook file the user made read-only is theirs to unlock: replacing it by rename would ignore
// its mode, so every write refuses and nothing changes.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { readStatus } from '../../src/node/status/status.js';
import { operate, workspace } from './support.js';

describe('a read-only hook file', () => {
  // Red before: install replaced a chmod 444 file with a fresh 0444 copy holding our entry.
  it.skipIf(process.platform === 'win32')(
    'is refused file-read-only, its bytes kept and no ledger written; writable again, it installs',
    async () => {
      const where = workspace();
      const before = '{"version": 1, "hooks": {}}\n';
      writeFileSync(where.hooks, before);
      chmodSync(where.hooks, 0o444);
      // status names the way out, not the install that would refuse.
      const status = await readStatus({
        hooksFile: where.hooks,
        ledger: where.ledger,
        sources: { home: where.dir, enterpriseFile: null },
      });
      expect(status.nextStep).toMatchObject({ code: 'make-writable', command: null });
      const refused = await operate(where, Operation.Install);
      expect(refused.error?.reason).toBe('file-read-only');
      expect(readFileSync(where.hooks, 'utf8')).toBe(before);
      expect(existsSync(where.ledger)).toBe(false);
      chmodSync(where.hooks, 0o644);
      expect((await operate(where, Operation.Install)).status).toBe('done');
    },
  );
});
