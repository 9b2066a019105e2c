// Eight installers with different owners race an editor that saves in place (it keeps the file
// open from its read to its write, truncates and writes, as VS Code does): no lost update on
// either side. Every entry lands exactly once, the editor's last save survives, foreign bytes
// stay, and the only refusal an installer meets is the documented retryable file-changed.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { posixCommand, SHELL } from '../planner/support.js';
import { buildChild, runChild } from './child/spawn.js';
import { ownerSpecs, tempDir } from './support.js';

const INSTALLERS = 8;
const SAVES = 150;

// The editor: read through its open descriptor, bump "saves", truncate, write, close.
const EDITOR = `
const fs = require('node:fs');
const [path, count] = [process.argv[1], Number(process.argv[2])];
for (let k = 1; k <= count; k++) {
  const fd = fs.openSync(path, 'r+');
  const doc = JSON.parse(fs.readFileSync(fd, 'utf8'));
  doc.saves = k;
  const text = JSON.stringify(doc, null, 2) + '\\n';
  fs.ftruncateSync(fd, 0);
  fs.writeSync(fd, text, 0);
  fs.closeSync(fd);
  const until = Date.now() + 2;
  while (Date.now() < until);
}
`;

let child: Awaited<ReturnType<typeof buildChild>>;
beforeAll(async () => {
  child = await buildChild();
});
afterAll(() => child.dispose());

it('loses neither an installer entry nor an editor save (red: an in-place save is overwritten, or an entry is lost or doubled)', async () => {
  const dir = tempDir();
  const hooks = join(dir, 'hooks.json');
  writeFileSync(
    hooks,
    '{\n  "version": 1,\n  "hooks": {"stop": [{"command": "foreign"}]},\n  "saves": 0\n}\n',
  );
  const editor = spawn(process.execPath, ['-e', EDITOR, hooks, String(SAVES)], {
    stdio: 'inherit',
  });
  const edited = new Promise((resolve) => editor.on('exit', resolve));
  const specs = ownerSpecs(INSTALLERS);
  await Promise.all(
    specs.map(async (spec, i) => {
      const job = {
        operation: Operation.Install,
        hooks,
        ledger: join(dir, `ledger-${i}.json`),
        spec,
        shell: SHELL,
        killAt: 0,
      };
      for (let attempt = 0; ; attempt++) {
        const result = await runChild(child.script, job);
        const { status, reason } = result.output ?? { status: 'crashed' };
        if (status === 'done' || status === 'no-op') return;
        // Red: anything but the retryable file-changed (or an editor mid-save, read as JSON).
        expect(`${status}:${reason}`).toMatch(
          /^(failed:file-changed|refused:json-syntax|refused:document-.*)$/,
        );
        expect(attempt).toBeLessThan(30);
      }
    }),
  );
  await edited;
  const final = JSON.parse(readFileSync(hooks, 'utf8')) as {
    saves: number;
    hooks: { stop: { command: string }[] };
  };
  expect(final.saves).toBe(SAVES);
  const commands = final.hooks.stop.map((entry) => entry.command);
  expect(commands.sort()).toEqual(['foreign', ...specs.map(posixCommand)].sort());
}, 180_000);
