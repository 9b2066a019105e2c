import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocks } from '../docs/pages.js';
import { cli, HOME_STUB_WORKS, useTempHome } from './support.js';

/** The `$ cursorhooks ...` lines of the README's one `<!-- file-cli-example -->` block. */
function commands(): string[][] {
  const found = blocks('fileCliExample');
  expect(found.map((block) => block.page)).toEqual(['README.md']);
  const lines = found[0]?.groups[0] ?? '';
  return lines.split('\n').map((line) => line.replace(/^\$ cursorhooks /, '').split(' '));
}

const tempHome = useTempHome('cursorhooks-readme-');

describe('README file-level shell example', () => {
  it.skipIf(!HOME_STUB_WORKS)(
    'runs as written in a temporary home, each step exiting 0 (red: the documented commands broke)',
    async () => {
      const home = tempHome();
      const lines = commands();
      expect(lines.map((args) => args[0])).toEqual(['install', 'install', 'status', 'remove']);
      mkdirSync(join(home, '.local', 'bin'), { recursive: true });
      mkdirSync(join(home, '.config', 'acme'), { recursive: true });
      writeFileSync(join(home, '.local', 'bin', 'acme-notify'), '#!/bin/sh\n');
      chmodSync(join(home, '.local', 'bin', 'acme-notify'), 0o755);
      writeFileSync(join(home, '.config', 'acme', 'stop.json'), '{}\n');
      const outputs: string[] = [];
      for (const args of lines) {
        // The shell would expand `~`; the default hook file comes from HOME.
        const outcome = await cli(args.map((arg) => arg.replace(/^~\//, `${home}/`)));
        expect(outcome.exitCode, `${args.join(' ')}: ${outcome.stderr}`).toBe(0);
        outputs.push(outcome.stdout);
      }
      expect(outputs[0]).toMatch(/^install: dry run: nothing was written/);
      expect(outputs[1]).toMatch(/^install: the hook file was written/);
      expect(outputs[2]).toContain('owned entry: owned');
      expect(readFileSync(join(home, '.cursor', 'hooks.json'), 'utf8')).not.toContain('acme');
    },
  );
});
