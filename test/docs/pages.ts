// The user-facing pages (README.md and docs/*.md) and the marked blocks in them. Every runner of
// documented examples reads its blocks from here, so a block is found wherever it lives.
import { readdirSync, readFileSync } from 'node:fs';

export const ROOT = new URL('../../', import.meta.url);

export interface Page {
  /** The page's path from the repository root, e.g. `docs/protocol.md`. */
  readonly path: string;
  readonly text: string;
}

/** README.md first, then every Markdown file in docs/, by name. */
export function pages(): Page[] {
  const docs = readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs].map((path) => ({
    path,
    text: readFileSync(new URL(path, ROOT), 'utf8'),
  }));
}

export function page(path: string): Page {
  const found = pages().find((candidate) => candidate.path === path);
  if (found === undefined) throw new Error(`no page ${path}`);
  return found;
}

/** One marked block: where it sits and what its pattern captured. */
export interface Block {
  readonly page: string;
  readonly start: number;
  readonly end: number;
  readonly groups: readonly string[];
}

/**
 * The marker before each kind of fenced block, and what follows it. A fence may be indented
 * (inside a list item); its closing fence then has the same indent.
 */
export const BLOCKS = {
  /** A TypeScript file shown byte for byte, and run. */
  example: /<!-- example: (\S+) -->\n```ts\n([\s\S]*?)\n```/g,
  /** A `plan` or `verify` call: command, request, exit code, stream and output. */
  cliExample:
    /<!-- cli-example -->\n```console\n\$ cursorhooks ([^\n<]+?) < request\.json\n```\n\n`request\.json`:\n\n```json\n([\s\S]*?)\n```\n\nExit code (\d+), (stdout|stderr):\n\n```json\n([\s\S]*?)\n```/g,
  /** File-level shell commands, run in a temporary home. */
  fileCliExample: /<!-- file-cli-example -->\n```console\n([\s\S]*?)\n```/g,
  /** Python that drives the CLI, run in a temporary home. */
  pythonExample: /<!-- python-example -->\n```python\n([\s\S]*?)\n```/g,
  /** `cursorhooks qualify` commands, run in a temporary home with a simulated Cursor. */
  qualifyExample: /<!-- qualify-example -->\n```console\n([\s\S]*?)\n```/g,
  /** A stop observer shown byte for byte from docs/examples/, run as Cursor runs it. */
  observerExample:
    /<!-- observer-example: (docs\/examples\/\S+) -->\n```(?:js|python|sh)\n([\s\S]*?)\n```/g,
  /** A fragment or a shape that cannot run, with the reason. */
  illustrative: /<!-- illustrative: ([^\n]+?) -->\n( *)```\w*\n[\s\S]*?\n\2```/g,
} as const;

export type BlockKind = keyof typeof BLOCKS;

/** Every block of one kind, on every page, in page order. */
export function blocks(kind: BlockKind, from: readonly Page[] = pages()): Block[] {
  return from.flatMap((current) =>
    [...current.text.matchAll(BLOCKS[kind])].map((match) => ({
      page: current.path,
      start: match.index,
      end: match.index + match[0].length,
      groups: match.slice(1).map((group) => group ?? ''),
    })),
  );
}

/** The offsets of every opening code fence on a page. */
export function fenceOpenings(text: string): number[] {
  const openings: number[] = [];
  let open = false;
  for (const match of text.matchAll(/^( *)```[^\n`]*$/gm)) {
    if (!open) openings.push(match.index + (match[1] ?? '').length);
    open = !open;
  }
  return openings;
}
