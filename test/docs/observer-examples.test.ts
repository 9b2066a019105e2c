// The stop observers docs/observer.md shows (Node on the kit, Python, POSIX sh): each block is
// its file in docs/examples/ byte for byte, and each file is run as Cursor runs the entry's
// command: `/bin/sh -c` with `cursor-event stop --binding <selector>`, working directory
// ~/.cursor, the payload on stdin. Every case must get exactly `{}` and a newline, exit 0, in
// the entry's 5 s timeout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltObserver } from '../observer/built.js';
import { BOM, bytesOf, joined, paddedPayload, stopPayload } from '../observer/payloads.js';
import { type RunOptions, runObserver } from '../observer/run-observer.js';
import { blocks, page } from './pages.js';

const EXAMPLES = ['stop-observer.mjs', 'stop-observer.py', 'stop-observer.sh'] as const;
const PATH_OF = (name: string) =>
  fileURLToPath(new URL(`../../docs/examples/${name}`, import.meta.url));
const ENTRY_TIMEOUT_MS = 5000;
const PYTHON = spawnSync('python3', ['--version']).status === 0;
if (!PYTHON) console.warn('python3 is not on PATH: the Python stop observer is not run');

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const plain = bytesOf(JSON.stringify(stopPayload()));

/** One stop as Cursor fires it at `name`; the selector is a file in a fresh home. */
async function fire(name: string, options: RunOptions) {
  const home = mkdtempSync(join(tmpdir(), 'cursorhooks-observer-example-'));
  homes.push(home);
  mkdirSync(join(home, '.cursor'));
  const selector = join(home, 'stop binding.json');
  const command = `'${PATH_OF(name)}' 'cursor-event' 'stop' '--binding' '${selector}'`;
  const run = await runObserver('/bin/sh', ['-c', command], {
    cwd: join(home, '.cursor'),
    env: { HOME: home, CURSOR_VERSION: '3.40.1' },
    ...options,
  });
  return { run, log: `${selector}.stops.log` };
}

/** The detached work's log once it has a line; it runs after the stop, so it is waited for. */
async function logged(log: string): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (existsSync(log) && readFileSync(log, 'utf8').endsWith('\n'))
      return readFileSync(log, 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return '';
}

describe('the stop observers in docs/observer.md', () => {
  it('are the files in docs/examples/, byte for byte, each shown once (red: a block and its file drifted apart, or one is missing)', () => {
    const shown = blocks('observerExample', [page('docs/observer.md')]);
    expect(shown.map((block) => block.groups[0])).toEqual(
      EXAMPLES.map((name) => `docs/examples/${name}`),
    );
    for (const block of shown) {
      const file = readFileSync(new URL(`../../${block.groups[0]}`, import.meta.url), 'utf8');
      expect(`${block.groups[1]}\n`).toBe(file);
    }
  });
});

describe.each(EXAMPLES)('%s, run as Cursor runs the entry', (name) => {
  beforeAll(() => {
    if (name.endsWith('.mjs')) requireBuiltObserver();
  });
  const skip = name.endsWith('.py') && !PYTHON;
  // Node and Python log the payload's status, sh the payload's size: either way, a line.
  const logLine = name.endsWith('.sh') ? /^\d+\n$/ : /^completed\n$/;

  it.skipIf(skip).each([
    ['a plain payload', plain],
    ['one byte-order mark', joined(BOM, plain)],
    ['two byte-order marks', joined(BOM, BOM, plain)],
  ])(
    'answers {} to %s, exits 0 in time, and its detached work runs with what it read (red: a Windows payload is misread, or the work never runs)',
    async (_, stdin) => {
      const { run, log } = await fire(name, { stdin });
      expect(run.stdout).toBe('{}\n');
      expect(run.code).toBe(0);
      expect(run.elapsed).toBeLessThan(ENTRY_TIMEOUT_MS);
      expect(await logged(log)).toMatch(logLine);
    },
  );

  it.skipIf(skip).each([
    ['bytes that are not UTF-8', joined(bytesOf('{"status": "'), Uint8Array.of(0xc3, 0x28))],
    ['MAX_STOP_PAYLOAD_BYTES + 1 bytes', paddedPayload(1024 * 1024 + 1)],
    ['empty stdin', new Uint8Array(0)],
  ])(
    'answers {} to %s and exits 0 in time (red: a bad payload fails the stop)',
    async (_, stdin) => {
      const { run } = await fire(name, { stdin });
      expect(run.stdout).toBe('{}\n');
      expect(run.code).toBe(0);
      expect(run.elapsed).toBeLessThan(ENTRY_TIMEOUT_MS);
    },
  );

  it.skipIf(skip)(
    'answers {} at its deadline when stdin is left open, within the 5 s timeout, and does no work (red: the observer waits for Cursor to close stdin)',
    async () => {
      const { run, log } = await fire(name, { stdin: plain, holdStdin: true });
      expect(run.stdout).toBe('{}\n');
      expect(run.code).toBe(0);
      expect(run.elapsed).toBeLessThan(ENTRY_TIMEOUT_MS);
      expect(existsSync(log)).toBe(false);
    },
  );

  it.skipIf(skip)(
    'exits 0 when stdout is closed at once (red: EPIPE or SIGPIPE fails the stop)',
    async () => {
      const { run } = await fire(name, { stdin: plain, closeStdout: true });
      expect(run.signal).toBe(null);
      expect(run.code).toBe(0);
    },
  );
});
