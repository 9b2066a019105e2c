import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Cli } from './lifecycle.js';

/** The built executable (the bin, which runs the bundle below), as `npm run build` leaves it. */
export const BUILT_CLI = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));
/** The bundle the bin compiles and runs: every command's code. */
export const CLI_BUNDLE = fileURLToPath(new URL('../../dist/cli-main.cjs', import.meta.url));

/** Runs the built CLI as a child process with `stdin` piped in, as a host would. */
export const spawnCli: Cli = (args, stdin) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], { stdio: 'pipe' });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        // A signal leaves no code; report it as a failure rather than success.
        exitCode: code ?? -1,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      }),
    );
    child.stdin.end(stdin);
  });
