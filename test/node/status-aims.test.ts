// readStatus pointed at a refused command (`intent`), and the sentences a few states say in their
// own words: in-process, so the mutation runs of status.ts see them (the CLI suites reach them too,
// but cost minutes a mutant).
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ErrorReason } from '../../src/errors/reasons.js';
import { release } from '../../src/node/ledger/release.js';
import {
  DISABLED_SENTENCE,
  GONE_SENTENCE,
  KEPT_SENTENCE,
  NEXT_STEP_SENTENCES,
  type NextStep,
  type StatusIntent,
} from '../../src/node/status/status.js';
import { disableHook } from '../../src/node/toggle.js';
import { COMMAND, OTHER_COMMAND, OTHER_SPEC, SHELL, SPEC } from '../planner/support.js';
import { FOREIGN, installed, status } from './status-support.js';
import { allChecksPassed, installedWorkspace, type Where, workspace } from './support.js';

const intent = (command: StatusIntent['command'], refused: ErrorReason) => ({
  intent: { command, refused },
});

describe('a refusal whose way out is one step whatever the state', () => {
  const cases: readonly [ErrorReason, NextStep, string | null][] = [
    ['spec-mismatch', 'update', 'update'],
    ['shell-mismatch', 'update', 'update'],
    ['command-exists', 'review-entry', null],
    ['command-collision', 'review-entry', null],
    ['executable-unverified', 'fix-host-paths', null],
    ['disabled-by-user', 'enable', 'enable'],
    ['file-read-only', 'make-writable', null],
    ['directory-not-writable', 'make-directory-writable', null],
    ['lock-foreign', 'remove-lock', null],
    ['metadata-not-preserved', 'fix-metadata-module', null],
    ['heartbeat-directory-missing', 'fix-heartbeat-path', null],
    ['heartbeat-is-directory', 'fix-heartbeat-path', null],
    ['heartbeat-directory-not-writable', 'fix-heartbeat-path', null],
  ];
  it.each(cases)(
    'names for %s the step %s, over the owned state`s none (red: the refused command`s way out is lost)',
    async (refused, code, command) => {
      const s = await status(await installed(), intent('install', refused));
      expect(s.nextStep).toMatchObject({ code, command, sentence: NEXT_STEP_SENTENCES[code] });
    },
  );

  it('names update with the spec and shell given (red: update is printed without the spec it moves to)', async () => {
    const s = await status(await installed(), {
      spec: SPEC,
      shell: SHELL,
      ...intent('update', 'spec-mismatch'),
    });
    expect(s.nextStep).toMatchObject({ code: 'update', with: { spec: SPEC, shell: SHELL } });
  });

  it('keeps the state`s step for a refusal with no step of its own (red: any refusal rewrites the step)', async () => {
    const s = await status(await installed(), intent('install', 'owner-modified'));
    expect(s.nextStep).toMatchObject({ code: 'none', command: null });
  });
});

describe('an uninstall whose entry is already gone', () => {
  /** The owned entry deleted alone: repair would put it back. */
  async function deleted(): Promise<Where> {
    const where = await installed();
    writeFileSync(where.hooks, FOREIGN);
    return where;
  }

  it.each(['remove', 'disable'] as const)(
    'names release with the gone sentence for a refused %s, never repair (red: an uninstall is told to put the entry back)',
    async (command) => {
      const s = await status(await deleted(), intent(command, 'owner-absent'));
      expect(s.owned).toMatchObject({ state: 'absent', repairable: true });
      expect(s.nextStep).toMatchObject({
        code: 'release',
        command: 'release',
        sentence: GONE_SENTENCE,
      });
    },
  );

  it('says the refusal`s own sentence when a remove of the gone entry was refused for another step (red: every uninstall of a gone entry is called gone)', async () => {
    const s = await status(await deleted(), intent('remove', 'lock-foreign'));
    expect(s.nextStep).toMatchObject({
      code: 'remove-lock',
      sentence: NEXT_STEP_SENTENCES['remove-lock'],
    });
  });

  it('names repair for a refused install of the same state (red: every intent is read as an uninstall)', async () => {
    const s = await status(await deleted(), intent('install', 'owner-absent'));
    expect(s.nextStep).toMatchObject({
      code: 'repair',
      command: 'repair',
      sentence: NEXT_STEP_SENTENCES.repair,
    });
  });

  it('says the gone sentence for a release the state names itself (deleted alongside other edits) (red: the remove is told release without why)', async () => {
    const where = await installed();
    writeFileSync(where.hooks, FOREIGN.replace('"other":true', '"other":false'));
    const s = await status(where, intent('remove', 'owner-absent'));
    expect(s.nextStep).toMatchObject({ code: 'release', sentence: GONE_SENTENCE });
    // Without the uninstall the same release keeps its usual sentence.
    const plain = await status(where, intent('install', 'owner-absent'));
    expect(plain.nextStep).toMatchObject({
      code: 'release',
      sentence: NEXT_STEP_SENTENCES.release,
    });
  });

  it('keeps the usual release sentence for an edited entry a remove refused (red: a modified entry is called gone)', async () => {
    const where = await installed();
    const document = readFileSync(where.hooks, 'utf8');
    writeFileSync(where.hooks, document.replace('"timeout":5', '"timeout":9'));
    const s = await status(where, intent('remove', 'owner-modified'));
    expect(s.owned.state).toBe('modified');
    expect(s.nextStep).toMatchObject({ code: 'release', sentence: NEXT_STEP_SENTENCES.release });
  });

  it('keeps a removed entry`s install for a refused remove (red: an uninstall rewrites steps other than repair)', async () => {
    const where = workspace();
    const s = await status(where, intent('remove', 'owner-absent'));
    expect(s.nextStep).toMatchObject({ code: 'install', sentence: NEXT_STEP_SENTENCES.install });
  });
});

describe('the sentences of none', () => {
  it('says the disabled sentence while the user`s "off" holds (red: a disabled hook reads as an owned one)', async () => {
    const where = await installed();
    const off = await disableHook({
      hooksFile: where.hooks,
      ledger: where.ledger,
      checkHostPaths: allChecksPassed,
    });
    expect(off.status).toBe('done');
    const s = await status(where);
    expect(s.owned).toEqual({
      state: 'disabled',
      repairable: false,
      reason: undefined,
      unowned: [],
    });
    expect(s.nextStep).toEqual({
      code: 'none',
      command: null,
      with: null,
      sentence: DISABLED_SENTENCE,
    });
  });

  it('says the plain none for an owned entry, not the kept one (red: every none is read as kept)', async () => {
    const s = await status(await installed());
    expect(s.nextStep.sentence).toBe(NEXT_STEP_SENTENCES.none);
  });

  it('says the kept sentence only while a released entry still stands (red: the kept sentence outlives the entry)', async () => {
    const where = await installed();
    await release({ hooksFile: where.hooks, ledger: where.ledger });
    expect((await status(where)).nextStep.sentence).toBe(KEPT_SENTENCE);
    // A second entry running our command is listed too, and the sentence stays kept.
    const ours = JSON.stringify({ type: 'command', command: COMMAND, timeout: 5 });
    writeFileSync(where.hooks, `{"version":1,"hooks":{"stop":[${ours},${ours}]}}`);
    const again = await status(where);
    expect(again.owned.unowned).toEqual([
      { event: 'stop', index: 0 },
      { event: 'stop', index: 1 },
    ]);
    expect(again.nextStep).toMatchObject({ code: 'none', sentence: KEPT_SENTENCE });
  });
});

describe('the spec given beside an owned entry', () => {
  /** Installed beside an entry, there before, running OTHER_SPEC's command that nobody owns. */
  function beside(): Promise<Where> {
    const other = JSON.stringify({ type: 'command', command: OTHER_COMMAND, timeout: 5 });
    return installedWorkspace(
      FOREIGN.replace('[{"command":"foreign"}', `[${other},{"command":"foreign"}`),
    );
  }

  it('lists the given spec`s entries elsewhere as unowned, and says the plain none (red: update would collide unseen, or none reads as kept)', async () => {
    const where = await beside();
    const s = await status(where, { spec: OTHER_SPEC, shell: SHELL });
    expect(s.owned).toEqual({
      state: 'owned',
      repairable: false,
      reason: undefined,
      unowned: [{ event: 'stop', index: 0 }],
    });
    expect(s.nextStep).toMatchObject({ code: 'none', sentence: NEXT_STEP_SENTENCES.none });
  });

  it('lists nothing when the spec given is the owned one (red: the owned entry is listed as nobody`s)', async () => {
    const s = await status(await installed(), { spec: SPEC, shell: SHELL });
    expect(s.owned).toEqual({ state: 'owned', repairable: false, reason: undefined, unowned: [] });
    expect(s.nextStep).toMatchObject({ code: 'none', sentence: NEXT_STEP_SENTENCES.none });
  });
});

describe('the spec install is printed with', () => {
  it('is the one given, when both spec and shell are, for a fresh home (red: the given spec is dropped)', async () => {
    const s = await status(workspace(), { spec: SPEC, shell: SHELL });
    expect(s.nextStep).toMatchObject({ code: 'install', with: { spec: SPEC, shell: SHELL } });
  });

  it('is none when only the spec is given (red: an install is printed with no shell)', async () => {
    const s = await status(workspace(), { spec: SPEC });
    expect(s.nextStep).toMatchObject({ code: 'install', command: 'install', with: null });
    expect('liveness' in s).toBe(false);
  });

  it('is none when only the shell is given (red: an install is printed with no spec)', async () => {
    const s = await status(workspace(), { shell: SHELL });
    expect(s.nextStep).toMatchObject({ code: 'install', command: 'install', with: null });
  });
});
