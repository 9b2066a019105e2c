// The kit's error helpers one by one: which system errors map to which reason, what counts as a
// bug, and what aboutFile keeps when it names the file.
import { describe, expect, it, vi } from 'vitest';
import { ConflictError } from '../../src/errors/errors.js';
import {
  aboutFile,
  asHostError,
  errnoOf,
  FileChangedError,
  HostIOError,
  isBug,
  TargetMovedError,
} from '../../src/node/errors.js';
import { errno } from './support.js';

const holder = { pid: 7, hostname: 'h', acquiredAt: '2026-01-01T00:00:00Z' };

describe('errnoOf and isBug', () => {
  it('reads a string code only, and nothing from null or undefined (red: a null rejection crashes the reporter, or a numeric code passes as errno)', () => {
    expect(errnoOf(errno('EIO'))).toBe('EIO');
    expect(errnoOf(null)).toBeUndefined();
    expect(errnoOf(undefined)).toBeUndefined();
    expect(errnoOf({ code: 5 })).toBeUndefined();
    expect(errnoOf(new Error('x'))).toBeUndefined();
  });

  it('calls only a codeless foreign error a bug (red: a system failure is thrown as a bug, or a bug is reported as I/O)', () => {
    expect(isBug(new TypeError('x'))).toBe(true);
    expect(isBug(errno('EIO'))).toBe(false);
    expect(isBug(new FileChangedError())).toBe(false);
    expect(isBug(new ConflictError('owner-modified'))).toBe(false);
  });
});

describe('asHostError', () => {
  // A fresh copy of the module, evaluated inside the test: the reason table is a module-level
  // constant, which a mutation run switches only in code evaluated after the test began.
  it('maps EACCES, EPERM and EROFS to permission-denied, ENOSPC and EDQUOT to disk-full, the rest to io-failure, keeping the code (red: a user gets io-failure for a full disk)', async () => {
    vi.resetModules();
    const fresh = await import('../../src/node/errors.js');
    const expected: Record<string, string> = {
      EACCES: 'permission-denied',
      EPERM: 'permission-denied',
      EROFS: 'permission-denied',
      ENOSPC: 'disk-full',
      EDQUOT: 'disk-full',
      EIO: 'io-failure',
    };
    for (const [code, reason] of Object.entries(expected)) {
      expect(fresh.asHostError(errno(code)), code).toMatchObject({ reason, code });
    }
    expect(fresh.asHostError(new Error('x'))).toMatchObject({
      reason: 'io-failure',
      code: undefined,
    });
  });

  it('passes the kit`s own errors through unchanged (red: a refusal is rewrapped as I/O)', () => {
    const err = new ConflictError('owner-modified');
    expect(asHostError(err)).toBe(err);
  });
});

describe('aboutFile', () => {
  it('names the file of a host error that names none, keeping its reason, code and lock holder (red: a lock-timeout loses who holds the lock)', () => {
    const named = aboutFile(new HostIOError('lock-timeout', 'EX', { holder }), 'lock', '/l');
    expect(named).toBeInstanceOf(HostIOError);
    expect(named).toMatchObject({
      reason: 'lock-timeout',
      code: 'EX',
      path: '/l',
      role: 'lock',
      holder,
    });
    const plain = aboutFile(errno('EACCES'), 'ledger', '/x') as HostIOError;
    expect(plain).toMatchObject({ reason: 'permission-denied', path: '/x', role: 'ledger' });
    expect(plain.holder).toBeUndefined();
  });

  it('leaves an error that already names its file, and any other kit error, as it is (red: the ledger`s failure is blamed on the hook file)', () => {
    const named = new HostIOError('io-failure', 'EIO', { path: '/ledger', role: 'ledger' });
    expect(aboutFile(named, 'hook-file', '/hooks')).toBe(named);
    const refusal = new ConflictError('owner-modified');
    expect(aboutFile(refusal, 'hook-file', '/hooks')).toBe(refusal);
  });
});

describe('the kit`s error kinds', () => {
  it('says file-changed for a changed or moved target (red: the reason, and with it the message, is lost)', () => {
    expect(new FileChangedError()).toMatchObject({ reason: 'file-changed' });
    expect(new TargetMovedError()).toMatchObject({ reason: 'file-changed' });
    expect(new TargetMovedError()).toBeInstanceOf(FileChangedError);
  });
});
