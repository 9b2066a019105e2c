import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { terminalIO, terminalText } from '../../src/cli/terminal-text.js';
import { SHELL } from './support.js';

const code = (n: number) => String.fromCharCode(n);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => code(from + i));

describe('terminalText', () => {
  // Red: tab or line feed escaped breaks every multi-line report and indented JSON layout.
  it('keeps tab, line feed and printable text as they are', () => {
    const text = 'a\tb\nc d é 中 😀 C:\\Users\\ada "q"\n';
    expect(terminalText(text)).toBe(text);
  });

  it.each([
    ['C0 but tab and line feed', [...range(0x00, 0x08), ...range(0x0b, 0x1f)]],
    ['DEL', [code(0x7f)]],
    ['C1', range(0x80, 0x9f)],
    ['bidi embeddings and overrides', range(0x202a, 0x202e)],
    ['bidi isolates', range(0x2066, 0x2069)],
  ])('escapes each of %s as \\uHHHH (red: that class reaches the terminal raw)', (_, chars) => {
    for (const char of chars) {
      const hex = (char.codePointAt(0) as number).toString(16).padStart(4, '0');
      expect(terminalText(`x${char}y`)).toBe(`x\\u${hex}y`);
    }
  });

  // Red: a neighbour of an escaped range (a bidi mark, U+00A0, U+2065) is mangled too.
  it('leaves the characters next to the escaped ranges alone', () => {
    const text = [code(0xa0), code(0x2029), code(0x202f), code(0x2065), code(0x206a)].join('');
    expect(terminalText(text)).toBe(text);
  });

  // Red: the escape is not JSON's, so --json output no longer parses or reads back changed.
  it('turns JSON text into JSON that parses back to the same value', () => {
    const value = {
      hostname: '\u001b]0;title\u0007',
      acquiredAt: '2026\u009b2J\u202e\u2066\u007f',
      plain: 'a\tb\nc',
    };
    const json = terminalText(`${JSON.stringify(value, null, 2)}\n`);
    expect(json).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(json)).toStrictEqual(value);
  });
});

describe('terminalIO and run', () => {
  it('escapes what is written to stdout and to stderr (red: one of the streams is passed raw)', () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = terminalIO({ stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
    io.stdout('\u001b[2J\n');
    io.stderr('\u202e\n');
    expect(out).toEqual(['\\u001b[2J\n']);
    expect(err).toEqual(['\\u202e\n']);
  });

  // Red: a command writes to the streams it was given without the escaping (here render-argv,
  // whose text output quotes the tokens of argv).
  it('run escapes a command report it never wrote through the escaping itself', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const exit = await run(
      ['render-argv', '--shell', SHELL, '--', 'a\u202eb', '\u001b[2J'],
      new Uint8Array(0),
      { stdout: (t) => out.push(t), stderr: (t) => err.push(t) },
    );
    expect({ exit, err }).toEqual({ exit: 0, err: [] });
    expect(out).toEqual(["'a\\u202eb' '\\u001b[2J'\n"]);
  });
});
