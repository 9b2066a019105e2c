// The public entry points' exports as the TypeScript checker sees them: each name with what it
// declares (class, function, const, type, interface…), so a lost, added or changed export shows.
import { join } from 'node:path';
import ts from 'typescript';

/** The package's entries (package.json "exports" keys) and the source each one's types come from. */
export const ENTRY_SOURCES = {
  '.': 'src/index.ts',
  './node': 'src/node/index.ts',
  './observer': 'src/observer/index.ts',
} as const;

function kindOf(symbol: ts.Symbol): string {
  const f = symbol.flags;
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Enum) return 'enum';
  if (f & ts.SymbolFlags.Variable) return 'const';
  if (f & ts.SymbolFlags.Interface) return 'interface';
  if (f & ts.SymbolFlags.TypeAlias) return 'type';
  return `flags ${f}`;
}

/** The CommonJS types of ./observer (the require condition), written over the ES ones. */
export const OBSERVER_COMMONJS_TYPES = 'src/observer/require.d.cts';

/**
 * For each entry, its sorted exports as `name: kind`, read from the sources under `root`; by
 * default the package's entries, or `sources` (entry name to file).
 */
export function publicExports(
  root: string,
  sources: Readonly<Record<string, string>> = ENTRY_SOURCES,
): Record<string, string[]> {
  const files = Object.values(sources).map((file) => join(root, file));
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    experimentalDecorators: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [entry, file] of Object.entries(sources)) {
    const source = program.getSourceFile(join(root, file));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`no module for ${file}`);
    out[entry] = checker
      .getExportsOfModule(moduleSymbol)
      .map((symbol) => {
        const target =
          symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return `${symbol.name}: ${kindOf(target)}`;
      })
      .sort();
  }
  return out;
}
