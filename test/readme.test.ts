import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REASON_MESSAGES } from '../src/errors/reasons.js';

const root = new URL('../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

/** The fenced block that follows each `<!-- example: path -->` marker. */
function examples(): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of readme.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)) {
    found.set(match[1] as string, match[2] as string);
  }
  return found;
}

const RUNNABLE = [
  'test/readme/plan-lifecycle.ts',
  'test/readme/host-contract.ts',
  'test/readme/node-host.ts',
];
const SHOWN = [...RUNNABLE, 'test/readme/mock-contract.test.ts'];

describe('README', () => {
  it.each(SHOWN)(
    'shows %s exactly as the file, or the README code has drifted from what runs',
    (path) => {
      expect(examples().get(path)).toBe(readFileSync(new URL(path, root), 'utf8').trimEnd());
    },
  );

  it('shows no example without a file behind it, or an unchecked snippet can rot', () => {
    expect([...examples().keys()].sort()).toEqual([...SHOWN].sort());
  });

  // Each runnable example asserts its own outcomes with node:assert; importing runs it.
  it.each(RUNNABLE)(
    'runs %s without a failed assertion, or the documented API no longer works',
    async (path) => {
      await expect(import(new URL(path, root).href)).resolves.toBeDefined();
    },
  );

  it('lists every error reason with its fixed message, or the reason table is out of date', () => {
    for (const [reason, message] of Object.entries(REASON_MESSAGES)) {
      expect(readme).toContain(`| \`${reason}\` | ${message} |`);
    }
  });
});
