// SPEC §11: the planner stays pure. Nothing the advice (doctor's pure half), the JSON layer, the
// domain, the planner, the shell registry, the errors or contracts/ are made of reaches the file
// system, the OS, paths, `process`, the clock or randomness, and none of it imports the host kit
// or the CLI.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PURE_DIRS = [
  'src/advice',
  'src/json',
  'src/domain',
  'src/planner',
  'src/shell',
  'src/errors',
  'contracts',
];
const PURE_FILES = ['src/index.ts', 'src/limits.ts'];

/** Modules pure code may import besides its own relative ones: byte and hash helpers, DI. */
const ALLOWED_MODULES = new Set(['node:buffer', 'node:crypto', 'inversify', 'reflect-metadata']);
/** Globals that read the environment or the clock. */
const FORBIDDEN_GLOBALS = new Set(['process', 'Date', 'performance', 'globalThis', 'require']);
/** Properties that draw randomness, whatever object they are read from. */
const FORBIDDEN_PROPERTIES = new Set([
  'random',
  'randomBytes',
  'randomUUID',
  'randomInt',
  'getRandomValues',
]);

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const isPure = (file: string): boolean =>
  PURE_FILES.includes(file) || PURE_DIRS.some((dir) => file.startsWith(`${dir}/`));

/** What a source file does that pure code may not: each finding is a short description. */
function impurities(file: string, source: string): string[] {
  const found: string[] = [];
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true);
  const checkSpecifier = (specifier: string): void => {
    if (specifier.startsWith('.')) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), specifier)).replace(
        /\.js$/,
        '.ts',
      );
      if (!isPure(target)) found.push(`imports ${target}`);
    } else if (!ALLOWED_MODULES.has(specifier)) {
      found.push(`imports ${specifier}`);
    }
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      checkSpecifier(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      found.push('dynamic import');
    } else if (ts.isIdentifier(node) && FORBIDDEN_GLOBALS.has(node.text) && readsGlobal(node)) {
      found.push(`reads ${node.text}`);
    } else if (ts.isPropertyAccessExpression(node) && FORBIDDEN_PROPERTIES.has(node.name.text)) {
      found.push(`reads .${node.name.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** An identifier used as a value, not a property name, member name or declared name. */
function readsGlobal(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent)) &&
    parent.name === node
  ) {
    return false;
  }
  if (ts.isPropertySignature(parent) || ts.isMethodSignature(parent)) return false;
  return !ts.isTypeReferenceNode(parent);
}

describe('planner purity (SPEC §11)', () => {
  const files = [...PURE_DIRS.flatMap(sourcesUnder), ...PURE_FILES];

  it('scans every planner source, or a new folder escapes the check', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files).toContain('src/planner/hook-planner.ts');
  });

  it.each(files)(
    '%s reaches no file system, OS, path, process, clock or randomness, or the planner is impure',
    (file) => {
      expect(impurities(file, readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
    },
  );

  // The scanner itself: each kind of impurity it must catch.
  it.each([
    ["import { readFileSync } from 'node:fs';", 'imports node:fs'],
    ["import * as os from 'os';", 'imports os'],
    ["export { join } from 'node:path';", 'imports node:path'],
    [
      "import { runOperation } from '../node/run-operation.js';",
      'imports src/node/run-operation.ts',
    ],
    ['const home = process.env.HOME;', 'reads process'],
    ['const now = Date.now();', 'reads Date'],
    ['const t = performance.now();', 'reads performance'],
    ['const n = Math.random();', 'reads .random'],
    ["const m = await import('node:fs');", 'dynamic import'],
  ])('finds %s, or the purity test passes impure code', (source, finding) => {
    expect(impurities('src/planner/probe.ts', source)).toContain(finding);
  });

  it('accepts a member or key that only shares a forbidden name, or the scan cries wolf', () => {
    expect(
      impurities('src/planner/probe.ts', 'const o = { process: 1 }; o.process; type T = Date;'),
    ).toEqual([]);
  });
});
