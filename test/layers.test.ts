// How the layers stand: no module of src/ or contracts/ reaches itself through its imports (type
// imports count: a circle of types still ties two files into one), the shell layer imports nothing
// from contracts/ (the contracts are built on it), and the host kit's base rooms (lock, write,
// ledger, status, side-files) never import the operations built on them (src/node/index.ts,
// run-operation.ts, toggle.ts; qualify/ runs operations, so it stands beside those).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** Each source file's relative imports and re-exports, as repository paths of .ts files. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...sourcesUnder('src'), ...sourcesUnder('contracts')]) {
    const source = ts.createSourceFile(
      file,
      readFileSync(join(ROOT, file), 'utf8'),
      ts.ScriptTarget.ES2022,
    );
    const targets: string[] = [];
    for (const statement of source.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
        statement.moduleSpecifier !== undefined &&
        ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : undefined;
      if (specifier?.startsWith('.')) {
        targets.push(
          relative(ROOT, resolve(ROOT, dirname(file), specifier)).replace(/\.js$/, '.ts'),
        );
      }
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Every circle found, each as the files along it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    const at = stack.indexOf(file);
    if (at >= 0) {
      found.push([...stack.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    stack.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    stack.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return found;
}

describe('the layers', () => {
  const graph = importGraph();

  it('have no import circle (red: two modules import each other, directly or around a loop)', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('keep the shell layer below the contracts (red: src/shell imports a concrete contract)', () => {
    const upward = [...graph]
      .filter(([file]) => file.startsWith('src/shell/'))
      .flatMap(([file, targets]) =>
        targets.filter((t) => t.startsWith('contracts/')).map((t) => `${file} -> ${t}`),
      );
    expect(upward).toEqual([]);
  });

  it("keep the host kit's base rooms below its operations (red: lock/, write/, ledger/, status/ or side-files/ imports index, run-operation or toggle)", () => {
    const top = new Set(['src/node/index.ts', 'src/node/run-operation.ts', 'src/node/toggle.ts']);
    const upward = [...graph]
      .filter(([file]) => /^src\/node\/(lock|write|ledger|status|side-files)\//.test(file))
      .flatMap(([file, targets]) =>
        targets.filter((t) => top.has(t)).map((t) => `${file} -> ${t}`),
      );
    expect(upward).toEqual([]);
  });
});
