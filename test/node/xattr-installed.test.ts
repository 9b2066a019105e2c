// Whether the optional xattr module and a binary for this platform are installed, told from the
// node_modules folders alone, the way a require from the kit's own folder would find them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { xattrsInstalled } from '../../src/node/xattr-native.js';

const BINARY = `@napi-rs/xattr-${process.platform}-${process.arch}-gnu`;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cursorhooks-xattr-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function pkg(folder: string, manifest: object = {}): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest));
}

const module = (at: string, binaries: readonly string[] = [BINARY, '@napi-rs/xattr-other-os']) =>
  pkg(join(at, 'node_modules', '@napi-rs', 'xattr'), {
    optionalDependencies: Object.fromEntries(binaries.map((name) => [name, '1.0.3'])),
  });

describe('xattrsInstalled', () => {
  it('finds the module above the kit and its binary hoisted beside it (red: status says unavailable on a normal npm install)', () => {
    module(root);
    pkg(join(root, 'node_modules', BINARY));
    expect(xattrsInstalled(join(root, 'node_modules', 'cursorhooks', 'dist', 'src', 'node'))).toBe(
      true,
    );
  });

  it("finds a binary nested in the module's own node_modules (red: a non-hoisted install reads as unavailable)", () => {
    module(root);
    pkg(join(root, 'node_modules', '@napi-rs', 'xattr', 'node_modules', BINARY));
    expect(xattrsInstalled(join(root, 'app'))).toBe(true);
  });

  it('says no without a binary for this platform and architecture (red: status claims checks no write can make)', () => {
    module(root);
    pkg(join(root, 'node_modules', '@napi-rs/xattr-other-os'));
    expect(xattrsInstalled(join(root, 'app'))).toBe(false);
  });

  it('says no when the binary is named by the manifest of another folder only (red: any stray binary counts)', () => {
    module(join(root, 'other'));
    pkg(join(root, 'node_modules', BINARY));
    expect(xattrsInstalled(join(root, 'app'))).toBe(false);
  });

  it('says no for a binary the manifest does not name (red: a look-alike package counts)', () => {
    module(root, ['@napi-rs/xattr-other-os']);
    pkg(join(root, 'node_modules', BINARY));
    expect(xattrsInstalled(join(root, 'app'))).toBe(false);
  });

  it('says no without the module, or with an unreadable manifest (red: a throw instead of an answer)', () => {
    expect(xattrsInstalled(join(root, 'app'))).toBe(false);
    mkdirSync(join(root, 'node_modules', '@napi-rs', 'xattr'), { recursive: true });
    writeFileSync(join(root, 'node_modules', '@napi-rs', 'xattr', 'package.json'), '{');
    expect(xattrsInstalled(join(root, 'app'))).toBe(false);
  });

  it("never looks inside a folder named node_modules for node_modules (red: Node's resolver finds what the kit does not)", () => {
    module(join(root, 'node_modules'));
    pkg(join(root, 'node_modules', BINARY));
    expect(xattrsInstalled(join(root, 'node_modules'))).toBe(false);
  });

  it("finds the real install from the kit's own folder (red: the default start point is wrong)", () => {
    expect(xattrsInstalled()).toBe(true);
  });
});
