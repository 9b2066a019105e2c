import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../src/limits.js';
import { HostIOError } from '../../src/node/errors.js';
import { defaultHooksPath } from '../../src/node/locate.js';
import { readFileSnapshot, resolveTarget } from '../../src/node/write/read.js';
import { decode, failing, tempDir } from './support.js';

async function refusal(path: string): Promise<unknown> {
  return readFileSnapshot(path).then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('locating the hook file', () => {
  it('is .cursor/hooks.json under the given home, or hosts look in the wrong place', () => {
    expect(defaultHooksPath('/home/someone')).toBe('/home/someone/.cursor/hooks.json');
  });
});

describe('reading a hook file', () => {
  it('reads an absent file as the empty document, or a first install cannot start', async () => {
    const dir = tempDir();
    const snapshot = await readFileSnapshot(join(dir, 'hooks.json'));
    expect(snapshot).toMatchObject({ exists: false, realPath: join(dir, 'hooks.json') });
    expect(snapshot.bytes.length).toBe(0);
  });

  it('reads the bytes, mode and owner of a regular file, or the writer cannot copy them', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, '{"version":1}', { mode: 0o600 });
    const snapshot = await readFileSnapshot(path);
    expect(decode(snapshot.bytes)).toBe('{"version":1}');
    expect(snapshot).toMatchObject({ exists: true, mode: 0o600, uid: process.getuid?.() });
  });

  it('follows a symlink to its real target, or a write would replace the link', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'dotfiles'));
    writeFileSync(join(dir, 'dotfiles', 'hooks.json'), '{"version":1}');
    symlinkSync(join(dir, 'dotfiles', 'hooks.json'), join(dir, 'hooks.json'));
    const snapshot = await readFileSnapshot(join(dir, 'hooks.json'));
    expect(snapshot.realPath).toBe(join(dir, 'dotfiles', 'hooks.json'));
    expect(snapshot.exists).toBe(true);
  });

  it('resolves a dangling symlink to its missing target, or creating would break the link', async () => {
    const dir = tempDir();
    symlinkSync('dotfiles/hooks.json', join(dir, 'hooks.json'));
    mkdirSync(join(dir, 'dotfiles'));
    expect(await resolveTarget(join(dir, 'hooks.json'))).toBe(join(dir, 'dotfiles', 'hooks.json'));
    expect((await readFileSnapshot(join(dir, 'hooks.json'))).exists).toBe(false);
  });

  it('refuses a directory as not regular, or a directory would read as a document', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'hooks.json'));
    const err = await refusal(join(dir, 'hooks.json'));
    expect(err).toBeInstanceOf(HostIOError);
    expect((err as HostIOError).reason).toBe('file-not-regular');
  });

  it('refuses a FIFO without blocking, or a reader would hang waiting for a writer', async () => {
    const path = join(tempDir(), 'hooks.json');
    execFileSync('mkfifo', [path]);
    expect(((await refusal(path)) as HostIOError).reason).toBe('file-not-regular');
  });

  it('refuses a device such as /dev/null, or an endless device would be read', async () => {
    const path = join(tempDir(), 'hooks.json');
    symlinkSync('/dev/null', path);
    expect(((await refusal(path)) as HostIOError).reason).toBe('file-not-regular');
  });

  it('reads at most one byte past the limit of an oversized file, or reading is unbounded', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, Buffer.alloc(MAX_DOCUMENT_BYTES + 1000, 0x20));
    expect((await readFileSnapshot(path)).bytes.length).toBe(MAX_DOCUMENT_BYTES + 1);
  });

  it('reports EACCES as permission-denied with the code and no path, or the cause is lost', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, '{"version":1}');
    const err = (await readFileSnapshot(path, failing('open', 'EACCES')).catch(
      (e: unknown) => e,
    )) as HostIOError;
    expect(err).toBeInstanceOf(HostIOError);
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EACCES' });
    expect(err.message).not.toContain(path);
  });

  it('names the role and path when the reader is given a role, never in the message, or the user cannot tell which file', async () => {
    const path = join(tempDir(), 'ledger.json');
    writeFileSync(path, '{}');
    const err = (await readFileSnapshot(path, failing('open', 'EACCES'), { role: 'ledger' }).catch(
      (e: unknown) => e,
    )) as HostIOError;
    expect(err).toMatchObject({ reason: 'permission-denied', role: 'ledger', path });
    expect(err.message).not.toContain(path);
  });
});
