import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BLOCKS, type BlockKind, blocks, fenceOpenings, type Page, pages, ROOT } from './pages.js';

/** The README is the first page a newcomer reads; past this it is a reference again. */
const README_MAX_LINES = 260;

/** The page's text with its fenced blocks blanked out, offsets kept. */
function prose(text: string): string {
  return text.replace(/^( *)```[^\n]*\n[\s\S]*?\n\1```$/gm, (block) =>
    block.replace(/[^\n]/g, ' '),
  );
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every heading anchor of a page, numbered as GitHub numbers repeated headings. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const match of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(match[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** The relative links of a page's prose: `[text](target)`, without web or mail links. */
function relativeLinks(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/i.test(target));
}

const PAGES = pages();
const byPath = new Map(PAGES.map((current) => [current.path, current]));

describe('the documentation pages', () => {
  it('finds the README and the docs/ pages (red: a page moved and goes unchecked)', () => {
    expect(PAGES.map((current) => current.path)).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/contracts.md',
        'docs/contributing.md',
        'docs/doctor.md',
        'docs/host-kit.md',
        'docs/library.md',
        'docs/performance.md',
        'docs/protocol.md',
        'docs/refusals.md',
      ]),
    );
  });

  it(`keeps the README within ${README_MAX_LINES} lines (red: reference material crept back in)`, () => {
    const readme = byPath.get('README.md') as Page;
    expect(readme.text.split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it.each(PAGES.map((current) => [current.path, current] as const))(
    '%s cites nothing outside the repository (red: a reader is sent to a file they do not have)',
    (_, current) => {
      expect(current.text).not.toMatch(/\bSPEC\b/);
      expect(current.text).not.toContain('§');
      const directory = new URL('./', new URL(current.path, ROOT));
      for (const match of current.text.matchAll(/(?:\.\.\/)+[^\s)`'"\]]*/g)) {
        const target = new URL(match[0], directory).href;
        expect(target.startsWith(ROOT.href), match[0]).toBe(true);
      }
    },
  );

  it.each(PAGES.map((current) => [current.path, current] as const))(
    '%s links only to files and headings that exist (red: a moved section left a dead link)',
    (_, current) => {
      const links = relativeLinks(current.text);
      for (const link of links) {
        const [file = '', anchor] = link.split('#');
        const target = new URL(file, new URL(current.path, ROOT));
        expect(target.href.startsWith(ROOT.href), link).toBe(true);
        expect(existsSync(target) && statSync(target).isFile(), link).toBe(true);
        if (anchor === undefined) continue;
        const path = target.href.slice(ROOT.href.length);
        const linked = file === '' ? current : byPath.get(path);
        expect(linked, `${link}: anchors are checked only into pages`).toBeDefined();
        expect([...anchors(linked?.text ?? '')], link).toContain(anchor);
      }
    },
  );

  it('links between pages at least once each way (red: the link check found no links to check)', () => {
    const all = PAGES.flatMap((current) => relativeLinks(current.text));
    expect(all.filter((link) => link.includes('#')).length).toBeGreaterThan(5);
    for (const current of PAGES.slice(1)) {
      expect(relativeLinks(byPath.get('README.md')?.text ?? '')).toContain(current.path);
    }
  });

  it.each(PAGES.map((current) => [current.path, current] as const))(
    '%s has no code block without a marker saying what runs it (red: an unchecked example can rot)',
    (_, current) => {
      const covered = (Object.keys(BLOCKS) as BlockKind[]).flatMap((kind) =>
        blocks(kind, [current]),
      );
      for (const opening of fenceOpenings(current.text)) {
        const line = current.text.slice(0, opening).split('\n').length;
        const inside = covered.some((block) => block.start < opening && opening < block.end);
        expect(inside, `${current.path}:${line}`).toBe(true);
      }
    },
  );
});
