// The real path is the ledger key and the locked file: it must not change when the writer creates
// a missing directory under a symlinked ancestor, nor when a symlink is retargeted before the lock.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { readLedger } from '../../src/node/ledger/ledger.js';
import { writeHookFile } from '../../src/node/write/cas-write.js';
import { readFileSnapshot, resolveTarget } from '../../src/node/write/read.js';
import { operate, strays, tempDir, text, wrapSeam } from './support.js';

/** `home -> realhome`, with no `.cursor` directory yet. */
function symlinkedHome(): { dir: string; hooks: string; real: string; ledger: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'realhome'));
  symlinkSync(join(dir, 'realhome'), join(dir, 'home'));
  return {
    dir,
    hooks: join(dir, 'home', '.cursor', 'hooks.json'),
    real: join(dir, 'realhome', '.cursor', 'hooks.json'),
    ledger: join(dir, 'ledger.json'),
  };
}

describe('a hook file under a symlinked ancestor', () => {
  it('resolves the deepest existing ancestor and keeps the missing names, or the key changes once created', async () => {
    const where = symlinkedHome();
    expect(await resolveTarget(where.hooks)).toBe(where.real);
    expect((await readFileSnapshot(where.hooks)).realPath).toBe(where.real);
  });

  it('keys a fresh install by the real path, so install again is a no-op and remove works, or the host is locked out of its own entry', async () => {
    const where = symlinkedHome();
    const installed = await operate(where, Operation.Install);
    expect(installed).toMatchObject({ status: 'done', realPath: where.real });
    expect([...(await readLedger(where.ledger)).records.keys()]).toEqual([where.real]);
    // Red before the fix: `command-exists`, then `receipt-required`.
    expect((await operate(where, Operation.Install)).status).toBe('no-op');
    const removed = await operate(where, Operation.Remove, { spec: null });
    expect(removed.status, removed.error?.reason).toBe('done');
    expect(readFileSync(where.real, 'utf8')).not.toContain('cursor-event');
  });

  it('writes a snapshot read before the directory existed, or the writer reports a spurious change', async () => {
    const where = symlinkedHome();
    const expected = await readFileSnapshot(where.hooks);
    await writeHookFile(where.hooks, expected, text('{"version":1}\n'));
    expect(readFileSync(where.real, 'utf8')).toBe('{"version":1}\n');
  });
});

/**
 * What GNU stow makes: `home/.cursor -> ../dotfiles/cursor` and, inside that real directory, a
 * dangling `hooks.json -> ../store/hooks.json` (relative to dotfiles/cursor, not to home/.cursor).
 */
function stowed(): { dir: string; hooks: string; real: string; ledger: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'home'));
  mkdirSync(join(dir, 'dotfiles', 'cursor'), { recursive: true });
  mkdirSync(join(dir, 'dotfiles', 'store'));
  symlinkSync(join('..', 'dotfiles', 'cursor'), join(dir, 'home', '.cursor'));
  symlinkSync(join('..', 'store', 'hooks.json'), join(dir, 'dotfiles', 'cursor', 'hooks.json'));
  return {
    dir,
    hooks: join(dir, 'home', '.cursor', 'hooks.json'),
    real: join(realpathSync(dir), 'dotfiles', 'store', 'hooks.json'),
    ledger: join(dir, 'ledger.json'),
  };
}

describe('a stow layout: relative links all the way down', () => {
  it('resolves a dangling relative link against the real directory holding it, or the kit writes a file Cursor never reads', async () => {
    const where = stowed();
    expect(await resolveTarget(where.hooks)).toBe(where.real);
  });

  it('installs into the file the links name and keeps both links, or "done" is reported for a stray file', async () => {
    const where = stowed();
    const installed = await operate(where, Operation.Install);
    expect(installed).toMatchObject({ status: 'done', realPath: where.real });
    expect(readFileSync(where.hooks, 'utf8')).toContain('"stop"');
    expect(lstatSync(join(where.dir, 'dotfiles', 'cursor', 'hooks.json')).isSymbolicLink()).toBe(
      true,
    );
    expect(existsSync(join(where.dir, 'store'))).toBe(false);
  });
});

describe('a symlink retargeted before the lock is taken', () => {
  it('locks, writes and keys the file the link names under the lock, or the kit locks one file and writes another', async () => {
    const dir = tempDir();
    for (const name of ['a', 'b']) mkdirSync(join(dir, name));
    symlinkSync(join(dir, 'a'), join(dir, 'current'));
    const where = { hooks: join(dir, 'current', 'hooks.json'), ledger: join(dir, 'ledger.json') };
    let retargeted = false;
    // The lock's mkdir runs after the first resolution and before the lock: retarget there once.
    const fs = wrapSeam((call) => {
      if (call !== 'mkdir' || retargeted) return;
      retargeted = true;
      rmSync(join(dir, 'current'));
      symlinkSync(join(dir, 'b'), join(dir, 'current'));
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(retargeted).toBe(true);
    expect(outcome).toMatchObject({ status: 'done', realPath: join(dir, 'b', 'hooks.json') });
    expect(readFileSync(join(dir, 'b', 'hooks.json'), 'utf8')).toContain('cursor-event');
    expect(existsSync(join(dir, 'a', 'hooks.json'))).toBe(false);
    expect([...(await readLedger(where.ledger)).records.keys()]).toEqual([
      join(dir, 'b', 'hooks.json'),
    ]);
    // No lock or side file is left beside either target.
    expect([...strays(join(dir, 'a')), ...strays(join(dir, 'b'))]).toEqual(['hooks.json']);
  });
});
