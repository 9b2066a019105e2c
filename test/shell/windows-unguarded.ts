// Test-only renderers that are the real Windows contract with one guard taken out, for showing
// what each guard keeps PowerShell from misreading and that the pwsh checks catch a broken
// renderer. Never used to produce a command anything runs outside the tests.
import type { Renderer } from './windows-cases.js';
import { renderWindows } from './windows-cases.js';

// Private-use code points the contract accepts; no test path holds them.
const PLACEHOLDER_BASE = 0xe000;

/**
 * The real contract without its refusal of `chars`: each is hidden from its checks behind a
 * private-use placeholder, and put back into the rendered command. Quoting is per character,
 * so the output is what a contract that forgot this one refusal would render.
 */
export function renderSkipping(chars: string): Renderer {
  const hidden = [...chars];
  const placeholder = (index: number) => String.fromCodePoint(PLACEHOLDER_BASE + index);
  return (argv) => {
    if (argv.some((token) => /[\ue000-\ue0ff]/u.test(token))) {
      throw new Error('a test path holds a placeholder code point');
    }
    const masked = argv.map((token) =>
      hidden.reduce((text, char, index) => text.replaceAll(char, placeholder(index)), token),
    );
    return hidden.reduce(
      (text, char, index) => text.replaceAll(placeholder(index), char),
      renderWindows(masked),
    );
  };
}

export interface BrokenRenderer {
  readonly label: string;
  readonly render: Renderer;
}

/** The breakages SPEC §14 names, each a renderer public installers have shipped. */
export const BROKEN_RENDERERS: readonly BrokenRenderer[] = [
  {
    label: 'apostrophes not doubled',
    // The contract's checks still run; only the quoting forgets the apostrophe.
    render: (argv) => {
      renderWindows(argv);
      return `& ${argv.map((token) => `'${token}'`).join(' ')}`;
    },
  },
  { label: 'the & operator dropped', render: (argv) => renderWindows(argv).replace(/^& /, '') },
  {
    label: 'quote look-alikes let through',
    render: renderSkipping('\u2018\u2019\u201a\u201b\u201c\u201d\u201e'),
  },
  { label: 'wildcard brackets let through in the executable', render: renderSkipping('[]') },
];
