// The CLI's tokenizer against util.parseArgs, its model: any command line, any declarations,
// the same tokens (kind, name, raw name, value, inline flag), so that dropping parseArgs for
// start-up changed no parse.
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OptionDeclarations } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { COMMON_OPTIONS } from '../../src/cli/parse.js';
import { tokenize } from '../../src/cli/tokens.js';

/** parseArgs' tokens without their argument index, which the CLI never reads. */
function modelTokens(args: string[], declared: OptionDeclarations) {
  const { tokens } = parseArgs({
    args,
    options: declared,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return tokens.map(({ index: _, ...token }) => token);
}

// Pieces that meet every branch: terminators, lone and grouped shorts, inline values, `=` at
// and past the name's start, dashes alone, and names declared or not.
const piece = fc.oneof(
  fc.constantFrom('--', '-', '---', '--=', '--=x', '--=a=b', '-=', '-h', '-hx', '-xh', '-s', '-sv'),
  fc.constantFrom('-hsv', '-shx', '--help', '--json', '--shell', '--shell=', '--shell=-x', '--s'),
  fc.constantFrom('--x=y=z', '--flag', '--flag=1', '--constructor', '-\u00e9', 'value', ''),
  fc.string({ maxLength: 6 }),
  fc.string({ maxLength: 6 }).map((text) => `-${text}`),
  fc.string({ maxLength: 6 }).map((text) => `--${text}`),
);

const declarations = fc
  .dictionary(
    fc.oneof(fc.constantFrom('shell', 'flag', 's', 'x', 'json'), fc.string({ maxLength: 4 })),
    fc.record({
      type: fc.constantFrom('string' as const, 'boolean' as const),
      short: fc.option(fc.constantFrom('h', 's', 'v', 'x', '='), { nil: undefined }),
    }),
    { maxKeys: 5 },
  )
  .map(
    (options) =>
      Object.fromEntries(
        Object.entries(options).map(([name, { type, short }]) => [
          name,
          short === undefined ? { type, help: '' } : { type, short, help: '' },
        ]),
      ) as OptionDeclarations,
  );

describe('tokenize', () => {
  it('cuts every command line as util.parseArgs does, under any declarations (red: an option, value, group or terminator is read differently from parseArgs)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), declarations, (args, declared) => {
        expect(tokenize(args, declared)).toEqual(modelTokens(args, declared));
      }),
      { numRuns: 3000 },
    );
  });

  it("cuts every command line as util.parseArgs does under each command's own declarations (red: a real command's options tokenize differently)", async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      const declared = { ...command.options, ...COMMON_OPTIONS };
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 8 }), (args) => {
          expect(tokenize(args, declared)).toEqual(modelTokens(args, declared));
        }),
        { numRuns: 200 },
      );
    }
  });
});
