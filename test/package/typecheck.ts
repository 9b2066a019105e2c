// Compiles a small host against an installed package as its own project would, with the
// project's TypeScript in-process. The standard library and @types/node are parsed once for
// every check of a run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './scratch.js';

/**
 * `node16-commonjs`: a CommonJS host (package type commonjs) under Node16, whose imports are
 * requires and which, unlike NodeNext in TypeScript 5.8 and later, may not require ES types.
 */
export type Resolution = 'nodenext' | 'node16-commonjs' | 'bundler' | 'node10';

const SETTINGS: Record<
  Resolution,
  { module: ts.ModuleKind; resolution: ts.ModuleResolutionKind; type: string }
> = {
  nodenext: {
    module: ts.ModuleKind.NodeNext,
    resolution: ts.ModuleResolutionKind.NodeNext,
    type: 'module',
  },
  'node16-commonjs': {
    module: ts.ModuleKind.Node16,
    resolution: ts.ModuleResolutionKind.Node16,
    type: 'commonjs',
  },
  bundler: {
    module: ts.ModuleKind.ESNext,
    resolution: ts.ModuleResolutionKind.Bundler,
    type: 'module',
  },
  node10: {
    module: ts.ModuleKind.CommonJS,
    resolution: ts.ModuleResolutionKind.Node10,
    type: 'commonjs',
  },
};

const shared = new Map<string, ts.SourceFile | undefined>();
const TOOLS = join(ROOT, 'node_modules');

/** The diagnostics of `lines` as `host.ts` in a host project under `cwd`, one line each. */
export function typecheck(
  cwd: string,
  resolution: Resolution,
  lines: readonly string[],
  { skipLibCheck }: { skipLibCheck: boolean },
): string[] {
  const setting = SETTINGS[resolution];
  const directory = join(cwd, `host-${resolution}-${skipLibCheck ? 'skip' : 'check'}`);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'package.json'), `{"type": "${setting.type}"}\n`);
  writeFileSync(join(directory, 'host.ts'), `${lines.join('\n')}\n`);
  const options: ts.CompilerOptions = {
    module: setting.module,
    moduleResolution: setting.resolution,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck,
    types: ['node'],
    typeRoots: [join(TOOLS, '@types')],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, fresh) => {
    if (!fileName.startsWith(TOOLS)) return read(fileName, language, onError, fresh);
    if (!shared.has(fileName)) shared.set(fileName, read(fileName, language, onError, fresh));
    return shared.get(fileName);
  };
  const program = ts.createProgram([join(directory, 'host.ts')], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    const file = diagnostic.file?.fileName.slice(cwd.length + 1) ?? '';
    return `${file}: TS${diagnostic.code}: ${message}`;
  });
}
