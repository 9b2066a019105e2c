// The optional module's loader and its error translation: the module as `require` from a given
// file loads it (a stand-in module laid out in a temporary node_modules), undefined when it
// cannot load or lacks a call the kit makes, loaded once for the kit's own folder; and
// "(os error N)" turned into Node's errno code.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { asSystemError as asError, requireXattrs } from '../../src/node/write/xattr-native.js';

const asSystemError = (err: unknown) => asError(err) as NodeJS.ErrnoException;

const CALLS = ['listAttributes', 'getAttribute', 'setAttribute', 'removeAttribute'].flatMap(
  (name) => [name, `${name}Sync`],
);

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder whose node_modules/@napi-rs/xattr is `source`; returns the file to require from. */
function installed(source: string): string {
  const root = mkdtempSync(join(tmpdir(), 'cursorhooks-xattr-'));
  made.push(root);
  const folder = join(root, 'node_modules', '@napi-rs', 'xattr');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), '{"name":"@napi-rs/xattr","main":"index.js"}');
  writeFileSync(join(folder, 'index.js'), source);
  return join(root, 'app.js');
}

/** Lays the platform's binary package (as the loader names it) beside the loader made for `from`. */
function binaryBeside(from: string, source: string): void {
  const gnu = process.platform === 'linux' ? '-gnu' : '';
  const name = `xattr-${process.platform}-${process.arch}${gnu}`;
  const folder = join(dirname(from), 'node_modules', '@napi-rs', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), `{"name":"@napi-rs/${name}","main":"index.js"}`);
  writeFileSync(join(folder, 'index.js'), source);
}

const exporting = (names: readonly string[]) =>
  names.map((name) => `exports.${name} = () => '${name}';`).join('\n');

describe('requireXattrs', () => {
  it('hands back the module as require finds it from the given file (red: it is looked for elsewhere, or not returned)', () => {
    const loaded = requireXattrs(installed(exporting(CALLS)));
    expect(loaded?.listAttributesSync('/x')).toBe('listAttributesSync');
    expect(loaded?.removeAttribute('/x', 'a')).toBe('removeAttribute');
  });

  it("takes the platform's binary package beside the loader without running the loader (red: every write pays for the loader's platform detection)", () => {
    const from = installed("throw new Error('the loader ran');");
    binaryBeside(from, exporting(CALLS));
    expect(requireXattrs(from)?.getAttributeSync('/x', 'a')).toBe('getAttributeSync');
  });

  it('lets the loader decide where the binary package throws as it loads or lacks a call (red: a musl system or a foreign binary package counts as unloadable, or a partial one is taken)', () => {
    const loader = `${exporting(CALLS)}\nexports.fromLoader = true;`;
    const throwing = installed(loader);
    binaryBeside(throwing, "throw new Error('wrong libc');");
    expect(requireXattrs(throwing)).toMatchObject({ fromLoader: true });
    const partial = installed(loader);
    binaryBeside(partial, exporting(CALLS.slice(1)));
    expect(requireXattrs(partial)).toMatchObject({ fromLoader: true });
  });

  it('leaves a binary named in NAPI_RS_NATIVE_LIBRARY_PATH to the loader (red: the package binary is taken over the one the user named)', () => {
    const from = installed(`${exporting(CALLS)}\nexports.fromLoader = true;`);
    binaryBeside(from, exporting(CALLS));
    vi.stubEnv('NAPI_RS_NATIVE_LIBRARY_PATH', '/opt/xattr.node');
    try {
      expect(requireXattrs(from)).toMatchObject({ fromLoader: true });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('says undefined where neither the binary package nor the loader loads (red: a broken install counts as loaded)', () => {
    const from = installed("throw new Error('invalid ELF header');");
    binaryBeside(from, "throw new Error('invalid ELF header');");
    expect(requireXattrs(from)).toBeUndefined();
  });

  it('says undefined when the module throws as it loads, as a broken binary makes it (red: the kit crashes, or counts it loaded)', () => {
    expect(requireXattrs(installed("throw new Error('invalid ELF header');"))).toBeUndefined();
  });

  it('says undefined with no module to find (red: an absent module counts as loaded)', () => {
    const root = mkdtempSync(join(tmpdir(), 'cursorhooks-xattr-'));
    made.push(root);
    expect(requireXattrs(join(root, 'app.js'))).toBeUndefined();
  });

  it.each(CALLS)(
    'says undefined for a module without %s (red: a foreign module passes, and the write fails halfway)',
    (missing) => {
      const partial = CALLS.filter((name) => name !== missing);
      expect(requireXattrs(installed(exporting(partial)))).toBeUndefined();
    },
  );

  it('says undefined for a module exporting a value that is not a function (red: any property counts)', () => {
    const source = `${exporting(CALLS.slice(1))}\nexports.${CALLS[0]} = 1;`;
    expect(requireXattrs(installed(source))).toBeUndefined();
  });
});

describe('loadXattrs', () => {
  it('loads the installed module once, the same answer every call (red: each call loads again, or a later call decides otherwise)', async () => {
    vi.resetModules();
    const { loadXattrs } = await import('../../src/node/write/xattr-native.js');
    const first = loadXattrs();
    expect(typeof first?.listAttributesSync).toBe('function');
    expect(loadXattrs()).toBe(first);
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
