// Qualifying end to end under every POSIX shell CI installs: `qualify start`, the simulated
// Cursor fires stop, `qualify finish` writes a record, `install --contract-file` installs a real
// entry with it, and when Cursor fires again the host's observer receives exactly
// `<exe> cursor-event stop --binding <selector>`. The user's file ends byte-identical.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkStopEvent, qualifiedContract } from '../../src/index.js';
import { cli } from '../cli/support.js';
import { fire, type ProbeHome, probeHome, USER_HOOKS } from '../node/qualify-support.js';
import { expectRequiredShellsFound, POSIX_SHELLS, type Shell } from '../support/shells.js';
import type { Misbehaviour } from '../support/simulated-cursor.js';

const json = (outcome: { stdout: string }) => JSON.parse(outcome.stdout);

async function qualify(where: ProbeHome, action: string, ...args: string[]) {
  return cli(['qualify', action, '--state-dir', where.stateDir, ...args, '--json']);
}

function start(where: ProbeHome) {
  return qualify(where, 'start', '--hooks-file', where.hooksFile, '--family', 'posix-single-quote');
}

/** The host's observer: records its argv (NUL-terminated) and stdin beside itself. */
function observer(where: ProbeHome): {
  executable: string;
  selector: string;
  seen: () => string[] | null;
  stdin: () => string;
} {
  const dir = join(where.home, 'Agent Tools', "it's here");
  mkdirSync(dir, { recursive: true });
  const executable = join(dir, 'agent notify');
  writeFileSync(
    executable,
    `#!/bin/sh\nprintf '%s\\0' "$0" "$@" > "$(dirname "$0")/argv"\ncat > "$(dirname "$0")/stdin"\nprintf '{}\\n'\n`,
  );
  chmodSync(executable, 0o700);
  const selector = join(where.home, 'bindings é', 'stop.json');
  mkdirSync(join(where.home, 'bindings é'));
  writeFileSync(selector, '{}\n');
  return {
    executable,
    selector,
    seen: () => {
      const file = join(dir, 'argv');
      return existsSync(file) ? readFileSync(file, 'utf8').split('\0').slice(0, -1) : null;
    },
    stdin: () => readFileSync(join(dir, 'stdin'), 'utf8'),
  };
}

it('finds every shell CURSORHOOKS_REQUIRED_SHELLS names (red: the end-to-end suite silently skips a shell)', () => {
  expectRequiredShellsFound();
});

describe.each(POSIX_SHELLS.map((shell) => ({ shell, label: shell.label })))(
  'qualify under $label',
  ({ shell }: { shell: Shell }) => {
    it('start, fire, finish, install --contract-file, fire: the observer gets exactly the stop argv from the qualified build (red: the record does not carry the grammar to a real install)', async () => {
      const where = probeHome();
      const started = await start(where);
      expect(started.exitCode, started.stderr).toBe(0);
      await fire(where, { shell, cursorVersion: '3.24.2' });
      const finished = await qualify(where, 'finish', '--out', where.out);
      expect(finished.exitCode, finished.stderr).toBe(0);
      expect(readFileSync(where.hooksFile, 'utf8')).toBe(USER_HOOKS);
      const record = JSON.parse(readFileSync(where.out, 'utf8'));
      const contract = qualifiedContract(record);

      const host = observer(where);
      const ledger = join(where.home, 'host ledger.json');
      const installed = await cli([
        'install',
        '--hooks-file',
        where.hooksFile,
        '--ledger',
        ledger,
        '--executable',
        host.executable,
        '--selector',
        host.selector,
        '--shell',
        contract.id,
        '--contract-file',
        where.out,
        '--json',
      ]);
      expect(installed.exitCode, installed.stderr).toBe(0);
      const fired = await fire(where, { shell, cursorVersion: '3.24.2' });
      expect(fired.map((hook) => hook.exit)).toEqual([0, 0]);
      expect(host.seen()).toEqual([
        host.executable,
        'cursor-event',
        'stop',
        '--binding',
        host.selector,
      ]);
      expect(checkStopEvent(host.stdin(), contract).qualified).toBe(true);

      const removed = await cli([
        'remove',
        '--hooks-file',
        where.hooksFile,
        '--ledger',
        ledger,
        '--contract-file',
        where.out,
        '--json',
      ]);
      expect(removed.exitCode, removed.stderr).toBe(0);
      expect(readFileSync(where.hooksFile, 'utf8')).toBe(USER_HOOKS);
    });

    it.each<Misbehaviour>(['reevaluate', 'drop-empty', 'collapse-quotes'])(
      'a launcher that does %s: probe-argv-mismatch with the per-token report, no record (red: a mangled argv qualifies)',
      async (misbehave) => {
        const where = probeHome();
        expect((await start(where)).exitCode).toBe(0);
        await fire(where, { shell, misbehave });
        const finished = await qualify(where, 'finish', '--out', where.out);
        expect(finished.exitCode).toBe(1);
        expect(JSON.parse(finished.stderr).error.reason).toBe('probe-argv-mismatch');
        const report = json(finished).invocations;
        expect(report).toHaveLength(1);
        expect(report[0].matched).toBe(false);
        expect(report[0].tokens.some((token: { equal: boolean }) => !token.equal)).toBe(true);
        expect(existsSync(where.out)).toBe(false);
        expect((await qualify(where, 'cancel')).exitCode).toBe(0);
        expect(readFileSync(where.hooksFile, 'utf8')).toBe(USER_HOOKS);
      },
    );
  },
);
