// The optional module's loader and its error translation: the module loaded once (its default
// export, where it has one), undefined when it cannot load, and "(os error N)" turned into Node's
// errno code.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { asSystemError as asError, xattrsInstalled } from '../../src/node/xattr-native.js';

const asSystemError = (err: unknown) => asError(err) as NodeJS.ErrnoException;

afterEach(() => {
  vi.doUnmock('@napi-rs/xattr');
});

describe('loadXattrs', () => {
  it('loads the module once and hands back its functions (red: each call loads again, or the namespace without them)', async () => {
    vi.resetModules();
    const { loadXattrs } = await import('../../src/node/xattr-native.js');
    const first = loadXattrs();
    expect(loadXattrs()).toBe(first);
    const loaded = await first;
    expect(typeof loaded?.listAttributes).toBe('function');
  });

  it('prefers the default export when the module has one (red: the wrapper object is used instead)', async () => {
    vi.resetModules();
    const calls = { listAttributes: async () => ['user.default'] };
    vi.doMock('@napi-rs/xattr', () => ({
      default: calls,
      listAttributes: async () => ['user.named'],
    }));
    const { loadXattrs } = await import('../../src/node/xattr-native.js');
    expect(await (await loadXattrs())?.listAttributes('/x')).toEqual(['user.default']);
  });

  it('uses the namespace when there is no default export (red: undefined is used as the module)', async () => {
    vi.resetModules();
    vi.doMock('@napi-rs/xattr', () => ({
      default: undefined,
      listAttributes: async () => ['user.named'],
    }));
    const { loadXattrs } = await import('../../src/node/xattr-native.js');
    expect(await (await loadXattrs())?.listAttributes('/x')).toEqual(['user.named']);
  });

  it('resolves to undefined when the module cannot load (red: the kit crashes where the module is absent)', async () => {
    vi.resetModules();
    vi.doMock('@napi-rs/xattr', () => {
      throw new Error('no binary for this platform');
    });
    const { loadXattrs } = await import('../../src/node/xattr-native.js');
    expect(await loadXattrs()).toBeUndefined();
  });
});

describe('asSystemError', () => {
  it('maps "(os error N)" to the errno name, several digits long (red: a code from one digit, or EIO for every failure)', () => {
    expect(asSystemError(new Error('No such file or directory (os error 2)'))).toMatchObject({
      message: 'No such file or directory (os error 2)',
      code: 'ENOENT',
    });
    expect(asSystemError(new Error('Permission denied (os error 13)')).code).toBe('EACCES');
    expect(asSystemError(new Error('No data available (os error 61)')).code).toBe('ENODATA');
  });

  it('says EIO for a message without a number, an unknown number, or a thrown non-error, keeping its text (red: an undefined code)', () => {
    expect(asSystemError(new Error('GenericFailure'))).toMatchObject({
      message: 'GenericFailure',
      code: 'EIO',
    });
    expect(asSystemError(new Error('odd (os error 99999)')).code).toBe('EIO');
    expect(asSystemError(new Error('os error 2')).code).toBe('EIO');
    expect(asSystemError('bad (os error 2)')).toMatchObject({
      message: 'bad (os error 2)',
      code: 'ENOENT',
    });
    expect(asSystemError('bad (os error 2)')).toBeInstanceOf(Error);
  });
});

describe('xattrsInstalled, edges', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const root = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cursorhooks-xattr-'));
    made.push(dir);
    return dir;
  };
  const pkg = (folder: string, manifest: object = {}) => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest));
  };
  const prefix = `@napi-rs/xattr-${process.platform}-${process.arch}`;

  it('walks past a module folder without a manifest to the installed one above (red: an empty folder ends the search)', () => {
    const dir = root();
    pkg(join(dir, 'node_modules', '@napi-rs', 'xattr'), {
      optionalDependencies: { [`${prefix}-gnu`]: '1' },
    });
    pkg(join(dir, 'node_modules', `${prefix}-gnu`));
    mkdirSync(join(dir, 'app', 'node_modules', '@napi-rs', 'xattr'), { recursive: true });
    expect(xattrsInstalled(join(dir, 'app'))).toBe(true);
  });

  it('accepts a binary named exactly for the platform and architecture, no libc suffix (red: macOS and Windows binaries are not found)', () => {
    const dir = root();
    pkg(join(dir, 'node_modules', '@napi-rs', 'xattr'), {
      optionalDependencies: { [prefix]: '1' },
    });
    pkg(join(dir, 'node_modules', prefix));
    expect(xattrsInstalled(join(dir, 'app'))).toBe(true);
  });
});
