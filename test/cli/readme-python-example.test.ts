// The README's Python block, run by a real python3 against the CLI from the sources (a
// `cursorhooks` on PATH, bundled as the package's bin is), in a temporary home.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { blocks, ROOT } from '../docs/pages.js';

const PYTHON = spawnSync('python3', ['--version'], { encoding: 'utf8' }).status === 0;
if (!PYTHON) console.warn('python3 is not on PATH: the README Python example is not run');

const found = blocks('pythonExample');
const code = found[0]?.groups[0] ?? '';

const home = mkdtempSync(join(tmpdir(), 'cursorhooks-readme-python-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

// The bundle lives under the project's node_modules, as an installed package's does: from a
// temporary directory it could not require the optional xattr module, and every write over an
// existing file would be refused metadata-not-preserved.
const bundleDir = mkdtempSync(join(fileURLToPath(ROOT), 'node_modules', '.cache-readme-python-'));
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

/** A `cursorhooks` executable bundled from the sources, with the package script's options. */
function binDirectory(): string {
  const bin = join(home, 'bin');
  mkdirSync(bin);
  buildSync({
    entryPoints: [fileURLToPath(new URL('src/cli/main.ts', ROOT))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: join(bundleDir, 'cursorhooks.mjs'),
    logLevel: 'warning',
  });
  writeFileSync(
    join(bin, 'cursorhooks'),
    `#!/bin/sh\nexec '${process.execPath}' '${join(bundleDir, 'cursorhooks.mjs')}' "$@"\n`,
  );
  chmodSync(join(bin, 'cursorhooks'), 0o755);
  return bin;
}

describe('the README Python example', () => {
  it('is in the README, once (red: the Python block moved or went missing)', () => {
    expect(found.map((block) => block.page)).toEqual(['README.md']);
  });

  it.skipIf(!PYTHON || process.platform === 'win32')(
    'installs, reports and removes as written, printing what its comment says (red: the JSON protocol a Python host reads changed)',
    () => {
      mkdirSync(join(home, '.local', 'bin'), { recursive: true });
      mkdirSync(join(home, '.config', 'acme'), { recursive: true });
      writeFileSync(join(home, '.local', 'bin', 'acme-notify'), '#!/bin/sh\n');
      chmodSync(join(home, '.local', 'bin', 'acme-notify'), 0o755);
      writeFileSync(join(home, '.config', 'acme', 'stop.json'), '{}\n');
      const run = spawnSync('python3', ['-c', code], {
        encoding: 'utf8',
        env: {
          ...process.env,
          HOME: home,
          PATH: `${binDirectory()}${delimiter}${process.env.PATH}`,
        },
        timeout: 60_000,
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const printed = /^print\(.*\) {2}# (.+)$/m.exec(code)?.[1];
      expect(printed).toBeDefined();
      expect(run.stdout).toBe(`${printed}\n`);
      const hooks = JSON.parse(readFileSync(join(home, '.cursor', 'hooks.json'), 'utf8'));
      expect(hooks).toEqual({ version: 1, hooks: { stop: [] } });
    },
  );
});
