import { describe, expect, it } from 'vitest';
import { UnsupportedError } from '../../src/errors/errors.js';
import { MAX_ARGS, MAX_ARGV_BYTES, MAX_TOKEN_BYTES } from '../../src/limits.js';
import { assertArgvTokens } from '../../src/shell/tokens.js';
import { expectRefusal } from './refusal.js';

const refuses = (argv: unknown, reason: Parameters<typeof expectRefusal>[2]) =>
  expectRefusal(() => assertArgvTokens(argv), UnsupportedError, reason);

// A token of exactly `bytes` UTF-8 bytes: ASCII padding followed by `tail`.
const padded = (bytes: number, tail: string) =>
  'a'.repeat(bytes - Buffer.byteLength(tail, 'utf8')) + tail;

describe('assertArgvTokens: shape', () => {
  it('accepts empty tokens and an empty argv, or empty ordinary args become unusable', () => {
    expect(() => assertArgvTokens(['', 'a', ''])).not.toThrow();
    expect(() => assertArgvTokens([])).not.toThrow();
  });

  it.each([
    ['a string', '/bin/agent'],
    ['null', null],
    ['undefined', undefined],
    ['an array-like object', { length: 1, 0: 'a' }],
  ])('refuses %s as argv-malformed, or a non-array is iterated as tokens', (_label, argv) => {
    refuses(argv, 'argv-malformed');
  });

  it.each([
    ['a number', ['a', 1]],
    ['undefined', ['a', undefined]],
    ['a boxed string', ['a', new String('b')]],
    ['a sparse hole', Object.assign([], { 1: 'a' })],
  ])('refuses %s as a token, or a non-string is stringified into the command', (_label, argv) => {
    refuses(argv, 'argv-malformed');
  });
});

describe('assertArgvTokens: token count', () => {
  it('accepts exactly 32 tokens, or the count limit is off by one', () => {
    expect(MAX_ARGS).toBe(32);
    expect(() => assertArgvTokens(Array(MAX_ARGS).fill('a'))).not.toThrow();
  });

  it('refuses 33 tokens, or an over-long argv reaches the shell', () => {
    refuses(Array(MAX_ARGS + 1).fill('a'), 'argv-too-many-tokens');
  });

  it('refuses a huge array by its length alone, or a hostile length is scanned', () => {
    refuses(Array(2 ** 31), 'argv-too-many-tokens');
  });
});

describe('assertArgvTokens: token bytes', () => {
  it.each([
    ['1-byte', 'a'],
    ['2-byte', 'é'],
    ['3-byte', '中'],
    ['4-byte', '😀'],
  ])(
    'accepts a 4,096-byte token ending in a %s character, or the limit is off by one',
    (_l, tail) => {
      expect(MAX_TOKEN_BYTES).toBe(4096);
      expect(() => assertArgvTokens([padded(MAX_TOKEN_BYTES, tail)])).not.toThrow();
    },
  );

  it.each([
    ['1-byte', 'a'],
    ['2-byte', 'é'],
    ['3-byte', '中'],
    ['4-byte', '😀'],
  ])(
    'refuses a 4,097-byte token ending in a %s character, or an oversize token reaches the shell',
    (_l, tail) => {
      refuses([padded(MAX_TOKEN_BYTES + 1, tail)], 'argv-token-too-long');
    },
  );

  it('counts UTF-8 bytes, not UTF-16 code units, or 2-byte characters slip past the limit', () => {
    expect(() => assertArgvTokens(['é'.repeat(2048)])).not.toThrow();
    refuses(['é'.repeat(2049)], 'argv-token-too-long'); // 2,049 code units, 4,098 bytes
  });

  it('counts a surrogate pair as 4 bytes, not 6, or valid emoji tokens are refused early', () => {
    expect(() => assertArgvTokens(['😀'.repeat(1024)])).not.toThrow();
    refuses(['😀'.repeat(1025)], 'argv-token-too-long');
  });

  it('counts U+0080 as 2 bytes and U+0800 as 3, or the byte classes are off by one at their lower bounds', () => {
    expect(() => assertArgvTokens(['\u0080'.repeat(2048)])).not.toThrow();
    refuses(['\u0080'.repeat(2049)], 'argv-token-too-long');
    expect(() => assertArgvTokens([`a${'\u0800'.repeat(1365)}`])).not.toThrow();
    refuses(['\u0800'.repeat(1366)], 'argv-token-too-long');
  });

  it('refuses a 10 MB token, or an enormous token is accepted once its prefix is fine', () => {
    refuses(['a'.repeat(10_000_000)], 'argv-token-too-long');
  });
});

describe('assertArgvTokens: total bytes', () => {
  // Four tokens of 1,365 three-byte characters: 16,380 bytes, each token under its own limit.
  const base = Array(4).fill('中'.repeat(1365)) as string[];

  it('accepts exactly 16,384 bytes in all, or the total limit is off by one', () => {
    expect(MAX_ARGV_BYTES).toBe(16384);
    expect(() => assertArgvTokens(Array(4).fill('a'.repeat(4096)))).not.toThrow();
    expect(() => assertArgvTokens([...base, '😀'])).not.toThrow();
    expect(() => assertArgvTokens([...base, 'é', 'é'])).not.toThrow();
  });

  it('refuses 16,385 bytes in all, or an over-long command reaches the shell', () => {
    refuses([...Array(4).fill('a'.repeat(4096)), 'a'], 'argv-too-long');
  });

  it('refuses 16,385 bytes when the last byte comes from a multi-byte character, or the total counts code units', () => {
    refuses([...base, 'a😀'], 'argv-too-long');
    refuses([...base, 'é', '中'], 'argv-too-long');
  });
});

describe('assertArgvTokens: characters', () => {
  it.each([
    ['NUL', '\u0000'],
    ['CR', '\r'],
    ['LF', '\n'],
    ['dollar', '$'],
    ['backtick', '`'],
  ])('refuses %s, or it ends, splits or expands the command', (_label, char) => {
    refuses([`a${char}b`], 'argv-forbidden-character');
    refuses(['ok', 'ok', char], 'argv-forbidden-character');
  });

  it('accepts tab and other printable ASCII, or ordinary args are refused', () => {
    const printable = Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i))
      .join('')
      .replace(/[$`]/g, '');
    expect(() => assertArgvTokens(['\t', printable])).not.toThrow();
  });

  it.each([
    ['a lone high surrogate at the end', 'a\ud83d'],
    ['a high surrogate before a non-surrogate', '\ud83db'],
    ['two high surrogates before one low', '\ud83d\ud83d\ude00'],
  ])('refuses %s, or a token that is not UTF-8 is written', (_label, token) => {
    refuses([token], 'argv-unpaired-surrogate');
  });

  it.each([
    ['the first pair, U+10000', '\ud800\udc00'],
    ['the last pair, U+10FFFF', '\udbff\udfff'],
    ['U+D7FF and U+E000 around the surrogates', '\ud7ff\ue000'],
    ['U+FFFF', '\uffff'],
  ])('accepts %s, or the surrogate ranges are off by one', (_label, token) => {
    expect(() => assertArgvTokens([token])).not.toThrow();
  });

  it.each([
    ['a high surrogate before U+E000', '\ud800\ue000'],
    ['a high surrogate before U+DBFF', '\udbff\udbff'],
    ['a lone U+DC00', '\udc00'],
    ['a lone U+DFFF', '\udfff'],
  ])('refuses %s, or a surrogate range is off by one', (_label, token) => {
    refuses([token], 'argv-unpaired-surrogate');
  });

  it.each([
    ['a lone low surrogate', '\ude00'],
    ['a reversed pair', '\ude00\ud83d'],
  ])('refuses %s, or a token that is not UTF-8 is written', (_label, token) => {
    refuses(['ok', token], 'argv-unpaired-surrogate');
  });
});
