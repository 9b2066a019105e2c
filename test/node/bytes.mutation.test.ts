// Byte equality, the writer's only comparison, and the two one-line helpers beside it: random
// names and the default hook-file path.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultHooksPath } from '../../src/node/locate.js';
import { equalBytes } from '../../src/node/write/bytes.js';
import { randomHex } from '../../src/node/write/random.js';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('equalBytes', () => {
  it('is true for the same bytes, empty ones included (red: equal files compare as changed)', () => {
    expect(equalBytes(bytes(1, 2, 3), bytes(1, 2, 3))).toBe(true);
    expect(equalBytes(bytes(), bytes())).toBe(true);
  });

  it('is false when one is a prefix of the other, either way round (red: a truncated file passes as unchanged)', () => {
    expect(equalBytes(bytes(1, 2), bytes(1, 2, 3))).toBe(false);
    expect(equalBytes(bytes(1, 2, 3), bytes(1, 2))).toBe(false);
  });

  it('is false for one byte changed, first or last (red: an edit passes as unchanged)', () => {
    expect(equalBytes(bytes(9, 2, 3), bytes(1, 2, 3))).toBe(false);
    expect(equalBytes(bytes(1, 2, 3), bytes(1, 2, 9))).toBe(false);
  });
});

describe('randomHex', () => {
  it('gives that many random bytes as lowercase hex, different each time (red: a fixed or empty name)', async () => {
    const a = await randomHex(8);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(await randomHex(8)).not.toBe(a);
    expect(await randomHex(1)).toMatch(/^[0-9a-f]{2}$/);
  });
});

describe('defaultHooksPath', () => {
  it('is <home>/.cursor/hooks.json, the OS home unless given (red: the kit edits another file)', () => {
    expect(defaultHooksPath('/h')).toBe(join('/h', '.cursor', 'hooks.json'));
    expect(defaultHooksPath()).toBe(join(homedir(), '.cursor', 'hooks.json'));
  });
});
