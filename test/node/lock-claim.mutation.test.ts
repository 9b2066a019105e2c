// Taking a lock name (src/node/lock/claim.ts), called directly: which link errors mean a file
// system without hard links, how the probe that tells them from a busy name fails, and that the
// probe leaves no tracked side file. The error sets are module constants: the tests that pin them
// import a fresh claim.js inside the test, as a mutation run switches a mutant in only for code
// evaluated after the test began.
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type Claim, take } from '../../src/node/lock/claim.js';
import type { LockOwner } from '../../src/node/lock/lock-record.js';
import { isTracked } from '../../src/node/side-files/side-file-registry.js';
import { errno, hostFailure, strays, tempDir, wrapSeam } from './support.js';

async function freshClaim(): Promise<typeof import('../../src/node/lock/claim.js')> {
  vi.resetModules();
  return import('../../src/node/lock/claim.js');
}

/** Our record staged in a fresh directory, and the lock name to take. */
function setting(): { dir: string; claim: Claim; name: string } {
  const dir = tempDir();
  const realPath = join(dir, 'hooks.json');
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    acquiredAt: '2026-01-01T00:00:00Z',
    nonce: 'ours',
  };
  const staging = join(dir, 'hooks.json.cursorhooks-lock-1-0123456789ab.tmp');
  writeFileSync(staging, `${JSON.stringify(owner)}\n`);
  return { dir, claim: { realPath, owner, staging }, name: `${realPath}.cursorhooks-lock` };
}

/** A seam whose link(2) to each name fails as `failure` says (undefined: the real link). */
function linkFailing(failure: (to: string) => string | undefined) {
  const links: string[] = [];
  const fs = wrapSeam((call, _, args) => {
    if (call !== 'link') return;
    const to = String(args[1]);
    links.push(to);
    const code = failure(to);
    if (code !== undefined) throw errno(code);
  });
  return { fs, links };
}

describe('a file system without hard links, module constants evaluated inside the test', () => {
  it.each(['ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'])(
    'is refused lock-no-hard-links at the first link failing %s (red: the code is reported as io-failure, or probed)',
    async (code) => {
      const { take: fresh } = await freshClaim();
      const { dir, claim, name } = setting();
      const { fs, links } = linkFailing(() => code);
      const err = await hostFailure(fresh(claim, name, fs));
      expect(err).toMatchObject({ reason: 'lock-no-hard-links', code, path: dir });
      expect(links).toEqual([name]);
    },
  );

  it.each(['EPERM', 'EISDIR'])(
    'is refused lock-no-hard-links when %s also refuses a fresh name (red: a FAT volume is reported as a permission or a directory)',
    async (code) => {
      const { take: fresh } = await freshClaim();
      const { dir, claim, name } = setting();
      const { fs, links } = linkFailing(() => code);
      const err = await hostFailure(fresh(claim, name, fs));
      expect(err).toMatchObject({ reason: 'lock-no-hard-links', code, path: dir });
      expect(links).toHaveLength(2);
      expect(strays(dir)).toEqual(['hooks.json.cursorhooks-lock-1-0123456789ab.tmp']);
    },
  );
});

describe('a link error without an errno code', () => {
  // The `?? ''` fallbacks it reaches are equivalent (docs/mutation.md): no fallback string is a
  // code in either set. What can break is taking such an error for missing hard links.
  it('is io-failure, on the lock name and on the probe alike (red: an unknown failure is taken for a file system without hard links)', async () => {
    const { claim, name } = setting();
    const bare = wrapSeam((call) => {
      if (call === 'link') throw new Error('no code');
    });
    expect(await hostFailure(take(claim, name, bare))).toMatchObject({
      reason: 'io-failure',
      code: undefined,
    });
    let links = 0;
    const probeBare = wrapSeam((call) => {
      if (call === 'link' && ++links === 1) throw errno('EPERM');
      if (call === 'link') throw new Error('no code');
    });
    expect(await hostFailure(take(claim, name, probeBare))).toMatchObject({
      reason: 'io-failure',
      code: undefined,
    });
    expect(links).toBe(2);
  });
});

describe('the probe of a fresh name', () => {
  it('fails with its own errno when it fails otherwise than a file system without links would (red: an EIO on the probe is reported as lock-no-hard-links)', async () => {
    const { claim, name } = setting();
    const { fs, links } = linkFailing((to) => (to === name ? 'EPERM' : 'EIO'));
    const err = await hostFailure(take(claim, name, fs));
    expect(err).toMatchObject({ reason: 'io-failure', code: 'EIO' });
    expect(links).toHaveLength(2);
  });

  it('is removed and forgotten by the interrupt clean-up once it linked (red: an interrupt later removes a file of that name that is not ours)', async () => {
    const { dir, claim, name } = setting();
    const { fs, links } = linkFailing((to) => (to === name ? 'EPERM' : undefined));
    const err = await hostFailure(take(claim, name, fs));
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EPERM' });
    const probe = links[1] as string;
    expect(probe).toMatch(/\.cursorhooks-lock-\d+-[0-9a-f]{12}\.tmp$/);
    expect(isTracked(probe)).toBe(false);
    expect(strays(dir)).toEqual(['hooks.json.cursorhooks-lock-1-0123456789ab.tmp']);
  });
});
