// A lock name that holds something no cursorhooks process wrote makes every write refuse
// lock-foreign; status must name the way out of that, not the write that would refuse.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { readStatus } from '../../src/node/status/status.js';
import { operate, workspace } from './support.js';

const FOREIGN_LOCKS: readonly [string, (path: string) => void][] = [
  ['an empty file', (path) => writeFileSync(path, '')],
  ['a file that is not JSON', (path) => writeFileSync(path, 'not a record')],
  ['a dangling symlink', (path) => symlinkSync('/nonexistent/x', path)],
  ['a directory', (path) => mkdirSync(path)],
];

describe('status beside a foreign lock name', () => {
  // Red before: status said install, and the install it printed refused lock-foreign.
  it.each(FOREIGN_LOCKS)(
    "names remove-lock, with no command, for %s at the hook file's lock; the write runs once it is gone",
    async (_, plant) => {
      const where = workspace();
      const lock = `${where.hooks}.cursorhooks-lock`;
      plant(lock);
      const options = {
        hooksFile: where.hooks,
        ledger: where.ledger,
        sources: { home: where.dir, enterpriseFile: null },
      };
      const status = await readStatus(options);
      expect(status.nextStep).toMatchObject({ code: 'remove-lock', command: null });
      expect((await operate(where, Operation.Install)).error?.reason).toBe('lock-foreign');
      rmSync(lock, { recursive: true });
      expect((await readStatus(options)).nextStep.code).toBe('install');
      expect((await operate(where, Operation.Install)).status).toBe('done');
    },
  );

  // Red: a foreign lock turns "nothing to do" into a step, though no write is needed.
  it('leaves next step none alone when nothing needs writing', async () => {
    const where = workspace();
    expect((await operate(where, Operation.Install)).status).toBe('done');
    writeFileSync(`${where.hooks}.cursorhooks-lock`, '');
    const status = await readStatus({
      hooksFile: where.hooks,
      ledger: where.ledger,
      sources: { home: where.dir, enterpriseFile: null },
    });
    expect(status.nextStep.code).toBe('none');
  });
});
