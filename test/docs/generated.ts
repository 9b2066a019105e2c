// Regions of a page written by the code rather than by hand: a test renders what the code says
// and compares it with the page. With CURSORHOOKS_WRITE_DOCS=1 it rewrites the region instead.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { ROOT } from './pages.js';

const WRITE = process.env.CURSORHOOKS_WRITE_DOCS === '1';

/** The region `name` of page `path` must hold exactly `content` (red: the page drifted from the code). */
export function expectGenerated(path: string, name: string, content: string): void {
  const url = new URL(path, ROOT);
  const text = readFileSync(url, 'utf8');
  const open = `<!-- generated: ${name}; CURSORHOOKS_WRITE_DOCS=1 npm test rewrites it -->\n`;
  const close = `<!-- end generated: ${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close, start);
  expect(start >= 0 && end > start, `${path} has no region ${name}`).toBe(true);
  const current = text.slice(start + open.length, end);
  if (WRITE) writeFileSync(url, text.slice(0, start + open.length) + content + text.slice(end));
  else expect(current, `${path}: region ${name}`).toBe(content);
}

/** A Markdown table; a cell's pipes are escaped. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |\n`;
  return line(header) + line(header.map(() => '---')) + rows.map(line).join('');
}
