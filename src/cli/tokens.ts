// The command line cut into tokens as util.parseArgs cuts it (strict off, positionals allowed):
// the same kinds, names, values and inline flags, held to it by a property test. Written out
// because parseArgs, with the modules it loads and the declarations it validates, cost every
// call about a millisecond, more than the rest of the CLI's parsing together.
import type { OptionDeclarations } from './command.js';

export type Token =
  | {
      readonly kind: 'option';
      /** The declared name, also for a short form; else the name as typed. */
      readonly name: string;
      /** The option as typed, without an inline value: `--shell`, `-h`. */
      readonly rawName: string;
      readonly value: string | undefined;
      /** Whether the value was part of the same argument (`--shell=x`, `-fx`). */
      readonly inlineValue: boolean | undefined;
    }
  | { readonly kind: 'positional'; readonly value: string }
  | { readonly kind: 'option-terminator' };

export function tokenize(args: readonly string[], declared: OptionDeclarations): Token[] {
  const takesValue = (name: string) =>
    Object.hasOwn(declared, name) && declared[name]?.type === 'string';
  const named = (short: string) =>
    Object.entries(declared).find(([, option]) => option.short === short)?.[0] ?? short;
  const tokens: Token[] = [];
  const remaining = [...args];
  /** An option whose value, if it takes one, is the next argument, whatever it looks like. */
  const option = (name: string, rawName: string) => {
    const value = takesValue(name) ? remaining.shift() : undefined;
    const inlineValue = value === undefined ? undefined : false;
    tokens.push({ kind: 'option', name, rawName, value, inlineValue });
  };
  for (let arg = remaining.shift(); arg !== undefined; arg = remaining.shift()) {
    if (arg === '--') {
      tokens.push({ kind: 'option-terminator' });
      for (const value of remaining) tokens.push({ kind: 'positional', value });
      break;
    }
    const short = arg.length >= 2 && arg[0] === '-' && arg[1] !== '-' ? arg[1] : undefined;
    if (short !== undefined && arg.length === 2) {
      option(named(short), arg);
    } else if (short !== undefined && takesValue(named(short))) {
      tokens.push({
        kind: 'option',
        name: named(short),
        rawName: `-${short}`,
        value: arg.slice(2),
        inlineValue: true,
      });
    } else if (short !== undefined) {
      // A group, -abc for -a -b -c, read again one by one; a short that takes a value takes the
      // rest of the group as it (-abfFILE).
      const expanded: string[] = [];
      for (let at = 1; at < arg.length; at++) {
        if (takesValue(named(arg[at] as string))) {
          expanded.push(`-${arg.slice(at)}`);
          break;
        }
        expanded.push(`-${arg[at]}`);
      }
      remaining.unshift(...expanded);
    } else if (arg.length > 2 && arg.startsWith('--') && !arg.includes('=', 3)) {
      option(arg.slice(2), arg);
    } else if (arg.length > 2 && arg.startsWith('--')) {
      // As parseArgs: an `=` past the name marks a value; the name ends at the first `=`.
      const equals = arg.indexOf('=');
      const name = arg.slice(2, equals);
      const value = arg.slice(equals + 1);
      tokens.push({ kind: 'option', name, rawName: `--${name}`, value, inlineValue: true });
    } else {
      tokens.push({ kind: 'positional', value: arg });
    }
  }
  return tokens;
}
