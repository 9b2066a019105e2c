// What one call of the built CLI loads: every module the ESM loader resolves, recorded by a
// resolve hook that `--import` registers (both as data: URLs, so the call needs no other file).
// The laziness tests and the start-up bench both read it; it counts, it never times.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_CLI } from '../demo/cli-process.js';

const dataURL = (source: string) => `data:text/javascript,${encodeURIComponent(source)}`;

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.CURSORHOOKS_LOAD_LOG, resolved.url + '\\n');
  return resolved;
}`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(dataURL(HOOKS))});`;

export interface ModuleLoads {
  /** The bundle's files it evaluated, relative to dist/ (cli.js first). */
  readonly files: readonly string[];
  readonly bytes: number;
  /** The source modules in those files, each once, as esbuild names them (`src/cli/main.ts`). */
  readonly sources: readonly string[];
  /** The Node built-ins it imported (`node:fs`). */
  readonly builtins: readonly string[];
}

/** Runs the built CLI once with `args` and `stdin`; a failed call throws. */
export function moduleLoads(args: readonly string[], stdin = ''): ModuleLoads {
  const dir = mkdtempSync(join(tmpdir(), 'cursorhooks-loads-'));
  try {
    const log = join(dir, 'log');
    const child = spawnSync(process.execPath, ['--import', dataURL(REGISTER), BUILT_CLI, ...args], {
      input: stdin,
      encoding: 'utf8',
      env: { ...process.env, CURSORHOOKS_LOAD_LOG: log },
    });
    if (child.status !== 0) {
      throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
    }
    const urls = [...new Set(readFileSync(log, 'utf8').trim().split('\n'))];
    const paths = urls.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url));
    const texts = paths.map((path) => readFileSync(path, 'utf8'));
    return {
      files: paths.map((path) => relative(join(BUILT_CLI, '..'), path)),
      bytes: texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
      // esbuild heads each module's code in an unminified bundle with a comment naming it.
      sources: [
        ...new Set(
          texts.flatMap((text) =>
            [...text.matchAll(/^\/\/ ((?:src|contracts|node_modules)\/\S+)$/gm)].map(
              (match) => match[1] ?? '',
            ),
          ),
        ),
      ],
      builtins: urls.filter((url) => url.startsWith('node:')),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
