import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REASON_MESSAGES } from '../src/errors/reasons.js';
import { HOME_STUB_WORKS, useTempHome } from './cli/support.js';
import { blocks, page, ROOT } from './docs/pages.js';

/** Each `<!-- example: path -->` block, on any page: where it is shown and what it shows. */
function examples(): Map<string, { page: string; code: string }> {
  const found = new Map<string, { page: string; code: string }>();
  for (const block of blocks('example')) {
    const [path = '', code = ''] = block.groups;
    expect(found.has(path), `${path} is shown twice`).toBe(false);
    found.set(path, { page: block.page, code });
  }
  return found;
}

// Each runnable example asserts its own outcomes with node:assert; importing runs it.
const RUNNABLE = [
  'test/readme/plan-lifecycle.ts',
  'test/readme/host-contract.ts',
  'test/readme/node-host.ts',
  'test/readme/validate-schemas.ts',
  'test/readme/qualified-record.ts',
  'test/readme/advise-hooks.ts',
  'test/readme/diagnose-hooks.ts',
];
/** Runs against the user's home, so only inside a temporary one (below). */
const IN_HOME = 'test/readme/install-from-node.ts';
/** Vitest runs it as a test file of its own. */
const TEST_FILE = 'test/readme/mock-contract.test.ts';
const SHOWN = [...RUNNABLE, IN_HOME, TEST_FILE];

describe('documented TypeScript examples', () => {
  it.each(SHOWN)(
    'shows %s exactly as the file, or the documented code has drifted from what runs',
    (path) => {
      const shown = examples().get(path);
      expect(shown, `${path} is shown on no page`).toBeDefined();
      expect(shown?.code).toBe(readFileSync(new URL(path, ROOT), 'utf8').trimEnd());
    },
  );

  it('shows no example without a file behind it, or an unchecked snippet can rot', () => {
    expect([...examples().keys()].sort()).toEqual([...SHOWN].sort());
  });

  it('puts the Node quick start in the README (red: the first example a user sees moved away)', () => {
    expect(examples().get(IN_HOME)?.page).toBe('README.md');
  });

  it.each(RUNNABLE)(
    'runs %s without a failed assertion, or the documented API no longer works',
    async (path) => {
      await expect(import(new URL(path, ROOT).href)).resolves.toBeDefined();
    },
  );

  it('lists every error reason with its fixed message, or the reason table is out of date', () => {
    const refusals = page('docs/refusals.md').text;
    for (const [reason, message] of Object.entries(REASON_MESSAGES)) {
      expect(refusals).toContain(`| \`${reason}\` | ${message} |`);
    }
  });
});

describe('the README Node quick start', () => {
  const tempHome = useTempHome('cursorhooks-readme-node-');

  it.skipIf(!HOME_STUB_WORKS)(
    'installs, reports and removes in a temporary home as written (red: the quick start fails for a new user)',
    async () => {
      const home = tempHome();
      mkdirSync(join(home, '.local', 'bin'), { recursive: true });
      mkdirSync(join(home, '.config', 'acme'), { recursive: true });
      writeFileSync(join(home, '.local', 'bin', 'acme-notify'), '#!/bin/sh\n');
      chmodSync(join(home, '.local', 'bin', 'acme-notify'), 0o755);
      writeFileSync(join(home, '.config', 'acme', 'stop.json'), '{}\n');
      await import(new URL(IN_HOME, ROOT).href);
      // Removed again, and the ledger recorded both steps in the home it was given.
      const hooks = readFileSync(join(home, '.cursor', 'hooks.json'), 'utf8');
      expect(JSON.parse(hooks)).toEqual({ version: 1, hooks: { stop: [] } });
      const ledger = readFileSync(join(home, '.config', 'acme', 'ledger.json'), 'utf8');
      expect(ledger).toContain('"generation": 2');
    },
  );
});
