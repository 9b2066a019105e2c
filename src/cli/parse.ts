import { nameLike, usageError } from './cli-error.js';
import type { OptionDeclarations, OptionValues, PositionalDeclaration } from './command.js';
import { tokenize } from './tokens.js';

/** Options every command takes besides its own. */
export const COMMON_OPTIONS: OptionDeclarations = {
  json: { type: 'boolean', help: 'machine output: JSON on stdout, errors as JSON on stderr' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
};

export interface ParsedArguments {
  readonly options: OptionValues;
  readonly positionals: readonly string[];
}

/**
 * Parses `args` against the declarations, over tokens cut as util.parseArgs cuts them; the
 * checks run here so that each usage error names the offending option, and never repeats a
 * value the user typed.
 */
export function parseArguments(
  args: readonly string[],
  declared: OptionDeclarations,
  positional: PositionalDeclaration | undefined,
): ParsedArguments {
  const tokens = tokenize(args, declared);
  const options: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  let terminated = false;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      terminated = true;
    } else if (token.kind === 'positional') {
      if (positional === undefined || (positional.afterTerminator === true && !terminated)) {
        throw usageError('argument-unexpected', unexpectedArgument(positional));
      }
      positionals.push(token.value);
    } else {
      // Own keys only: `--constructor` must not find what every object inherits.
      const option = Object.hasOwn(declared, token.name) ? declared[token.name] : undefined;
      if (option === undefined) throw unknownOption(token.rawName);
      // Named as declared, also when given by its short form.
      const flag = `--${token.name}`;
      if (option.type === 'boolean') {
        if (token.value !== undefined) {
          throw usageError('option-value-unexpected', `option ${flag} takes no value`, {
            option: flag,
          });
        }
        options[token.name] = true;
      } else {
        // As strict parseArgs does: a separate value that starts with `-` is taken as a
        // forgotten value, not as the value (`--shell=-x` still passes one).
        if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) {
          throw usageError('option-value-missing', `option ${flag} needs a value`, {
            option: flag,
          });
        }
        const previous = options[token.name];
        if (option.multiple === true) {
          options[token.name] = [...((previous as string[] | undefined) ?? []), token.value];
        } else if (previous !== undefined) {
          throw usageError('option-repeated', `option ${flag} is given more than once`, {
            option: flag,
          });
        } else {
          options[token.name] = token.value;
        }
      }
    }
  }
  if (positional?.max !== undefined && positionals.length > positional.max) {
    throw usageError(
      'argument-unexpected',
      `too many arguments; this command takes ${positional.usage}`,
    );
  }
  return { options, positionals };
}

/** Required options are checked only once help was ruled out, so `--help` always works. */
export function assertRequiredOptions(values: OptionValues, declared: OptionDeclarations): void {
  for (const [name, option] of Object.entries(declared)) {
    if (option.required === true && values[name] === undefined) {
      throw usageError('option-required', `option --${name} is required`, {
        option: `--${name}`,
      });
    }
  }
}

function unknownOption(rawName: string) {
  const name = nameLike(rawName.replace(/^--?/, ''));
  if (name === undefined) return usageError('option-unknown', 'unknown option');
  const flag = rawName.startsWith('--') ? `--${name}` : `-${name}`;
  return usageError('option-unknown', `unknown option ${flag}`, { option: flag });
}

function unexpectedArgument(positional: PositionalDeclaration | undefined): string {
  if (positional === undefined) return 'this command takes no arguments';
  return `arguments go after --, as in: ${positional.usage}`;
}
