// The README's qualify commands, run as written in a temporary home: start, then the simulated
// Cursor fires stop (the step the user does in Cursor), status, finish; the record they write
// is one qualifiedContract accepts, and the user's hook file is as it was.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qualifiedContract } from '../../src/index.js';
import { blocks } from '../docs/pages.js';
import { POSIX_SHELLS, type Shell } from '../support/shells.js';
import { fireStop } from '../support/simulated-cursor.js';
import { cli, HOME_STUB_WORKS, useTempHome } from './support.js';

function commands(): string[][] {
  const found = blocks('qualifyExample');
  expect(found.map((block) => block.page)).toEqual(['README.md']);
  const lines = found[0]?.groups[0] ?? '';
  return lines.split('\n').map((line) => line.replace(/^\$ cursorhooks /, '').split(' '));
}

const USER_FILE = '{\n  "version": 1,\n  "hooks": { "stop": [ { "command": "echo mine" } ] }\n}\n';

const tempHome = useTempHome('cursorhooks-readme-qualify-');

describe('README qualify example', () => {
  it.skipIf(!HOME_STUB_WORKS)(
    'runs as written, with Cursor firing stop after start, and writes a usable record (red: the documented qualification broke)',
    async () => {
      const home = tempHome();
      const lines = commands();
      expect(lines.map((args) => args[0] === 'qualify' && args[1])).toEqual([
        'start',
        'status',
        'finish',
      ]);
      const hooksFile = join(home, '.cursor', 'hooks.json');
      mkdirSync(join(home, '.cursor'));
      mkdirSync(join(home, '.config', 'acme'), { recursive: true });
      writeFileSync(hooksFile, USER_FILE);
      const outputs: string[] = [];
      for (const args of lines) {
        const outcome = await cli(args.map((arg) => arg.replace(/^~\//, `${home}/`)));
        expect(outcome.exitCode, `${args.join(' ')}: ${outcome.stderr}`).toBe(0);
        outputs.push(outcome.stdout);
        if (args[1] === 'start') {
          await fireStop({
            hooksFile,
            launcher: { kind: 'posix', shell: POSIX_SHELLS[0] as Shell },
          });
        }
      }
      expect(outputs[1]).toContain('recorded: 1 stop invocation(s), 1 matching');
      const record = JSON.parse(readFileSync(join(home, '.config', 'acme', 'record.json'), 'utf8'));
      expect(qualifiedContract(record).family).toBe('posix-single-quote');
      expect(readFileSync(hooksFile, 'utf8')).toBe(USER_FILE);
    },
  );
});
