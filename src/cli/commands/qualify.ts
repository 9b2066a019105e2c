// `qualify start|status|finish|cancel`: the probe that qualifies the user's own Cursor build.
// One command with an action, so the four share one option table; an option the action does not
// take is a usage error rather than silently ignored.

import { defaultHooksPath } from '../../node/locate.js';
import { type InvocationReport, ProbeArgvMismatchError } from '../../node/qualify/argv-report.js';
import {
  cancelQualification,
  type FinishOutcome,
  finishQualification,
  type ProbeView,
  type QualifyOutcome,
  startQualification,
} from '../../node/qualify/probe.js';
import { qualificationStatus } from '../../node/qualify/status.js';
import { blockingFs } from '../../node/write/fs-seam.js';
import { GRAMMAR_FAMILY_IDS } from '../../shell/families.js';
import { usageError } from '../cli-error.js';
import type { Command, OptionValues } from '../command.js';
import { errorLine } from '../error-output.js';
import { ExitCode } from '../exit-codes.js';
import { failureJSON, failureOf } from '../file/failure.js';
import { HostPathRun } from '../file/host-paths.js';
import { absolute, VOUCH_OPTION } from '../file/options.js';
import { quoteWord } from '../file/status-result.js';
import type { CliIO } from '../io.js';
import { writeJSON } from '../io.js';

const ACTIONS = ['start', 'status', 'finish', 'cancel'] as const;
type Action = (typeof ACTIONS)[number];

/** The options each action takes besides --state-dir. */
const TAKES: Readonly<Record<Action, readonly string[]>> = {
  start: ['hooks-file', 'family', 'recorder', 'vouch-unperformed-checks'],
  status: [],
  finish: ['out', 'id'],
  cancel: [],
};
const REQUIRED: Readonly<Record<Action, readonly string[]>> = {
  start: ['family'],
  status: [],
  finish: ['out'],
  cancel: [],
};
const PATH_OPTIONS = ['state-dir', 'hooks-file', 'recorder', 'out'];

export const qualifyCommand: Command = {
  name: 'qualify',
  summary: "qualify the user's own Cursor build: start a probe, let Cursor fire it, finish",
  description: `Qualifies the Cursor build on this machine for a grammar family, so install can render for
it. start installs a probe stop entry (its own ledger in --state-dir; nothing else in the hook
file changes) whose recorder writes down how Cursor runs it. Then, in Cursor, finish one agent
turn: in the IDE send the agent a short message and let it answer; with the CLI use an
interactive session (some builds do not fire stop in -p mode). status says whether a recording
exists and what to do next. finish compares what was recorded with what was meant, token by
token: on a match it writes the record to --out, removes the probe entry and its directory; on
a mismatch it refuses (probe-argv-mismatch, with the per-token report) and writes no record.
cancel removes the probe without a record. Use the record with --contract-file.
The Windows family (powershell-stop) needs --recorder: an .exe of yours that implements the
recorder protocol (recordProbeInvocation in cursorhooks/node does it in one call).`,
  positionals: {
    usage: 'start|status|finish|cancel',
    help: 'the action',
    max: 1,
  },
  options: {
    'state-dir': {
      type: 'string',
      value: 'DIR',
      required: true,
      help: "the host's directory for the probe's state, ledger and files, an absolute path",
    },
    'hooks-file': {
      type: 'string',
      value: 'PATH',
      help: "start: the hook file, an absolute path (default: ~/.cursor/hooks.json in the user's home)",
    },
    family: {
      type: 'string',
      value: 'ID',
      help: `start: the grammar family to qualify, one of: ${GRAMMAR_FAMILY_IDS.join(', ')}`,
    },
    recorder: {
      type: 'string',
      value: 'PATH',
      help: 'start: your recorder executable (required for powershell-stop; default: a /bin/sh script)',
    },
    out: {
      type: 'string',
      value: 'PATH',
      help: 'finish: where to write the qualification record, an absolute path',
    },
    id: {
      type: 'string',
      value: 'ID',
      help: "finish: the record's contract id (default: from version, platform and family)",
    },
    ...VOUCH_OPTION,
  },
  output: `a summary; with --json one object {"action", "status" (or "phase"), "probe", ...}: start
  adds "hostPaths", status "invocations", "entry" and "nextStep", finish "record", "out" and
  "invocations"; a refusal prints the result too, then the error on stderr`,
  async run({ options, positionals, json, io }) {
    const action = actionOf(positionals[0], options);
    const stateDir = options['state-dir'] as string;
    if (action === 'status') return status(stateDir, json, io);
    let outcome: QualifyOutcome;
    let extra: Record<string, unknown> = {};
    if (action === 'start') {
      const hostPaths = new HostPathRun(options['vouch-unperformed-checks'] === true);
      const recorder = options.recorder as string | undefined;
      const started = await startQualification({
        stateDir,
        hooksFile: (options['hooks-file'] as string | undefined) ?? defaultHooksPath(),
        family: options.family as string,
        ...(recorder === undefined ? {} : { recorder }),
        checkHostPaths: hostPaths.checker,
        fs: blockingFs,
      });
      outcome = started;
      extra = { hostPaths: hostPaths.json() };
    } else if (action === 'finish') {
      const id = options.id as string | undefined;
      const finished = await finishQualification({
        stateDir,
        out: options.out as string,
        fs: blockingFs,
        ...(id === undefined ? {} : { id }),
      });
      outcome = finished;
      extra = { record: finished.record, out: finished.out, invocations: finished.invocations };
    } else {
      outcome = await cancelQualification({ stateDir, fs: blockingFs });
    }
    const result = {
      action,
      status: outcome.status,
      probe: outcome.probe,
      ...extra,
      error: outcome.error === undefined ? null : failureJSON(outcome.error),
    };
    if (json) writeJSON(io, result);
    else io.stdout(text(action, outcome, stateDir));
    if (outcome.error !== undefined) throw failureOf(outcome.error);
    return ExitCode.Ok;
  },
};

function actionOf(given: string | undefined, options: OptionValues): Action {
  const action = ACTIONS.find((known) => known === given);
  if (action === undefined) {
    throw usageError(
      given === undefined ? 'action-missing' : 'action-unknown',
      `qualify needs one action: ${ACTIONS.join(', ')}`,
    );
  }
  for (const name of Object.keys(options)) {
    const value = options[name];
    if (value === undefined || name === 'state-dir' || name === 'json' || name === 'help') continue;
    if (!TAKES[action].includes(name)) {
      throw usageError(
        'option-not-for-action',
        `option --${name} is not taken by qualify ${action}`,
        {
          option: `--${name}`,
        },
      );
    }
  }
  for (const name of REQUIRED[action]) {
    if (options[name] === undefined) {
      throw usageError('option-required', `option --${name} is required by qualify ${action}`, {
        option: `--${name}`,
      });
    }
  }
  const family = options.family;
  if (typeof family === 'string' && !(GRAMMAR_FAMILY_IDS as readonly string[]).includes(family)) {
    throw usageError(
      'family-unknown',
      `option --family names no grammar family; the families are: ${GRAMMAR_FAMILY_IDS.join(', ')}`,
      { option: '--family' },
    );
  }
  for (const name of PATH_OPTIONS) absolute(options, name);
  return action;
}

async function status(stateDir: string, json: boolean, io: CliIO): Promise<ExitCode> {
  const found = await qualificationStatus({ stateDir, fs: blockingFs });
  const result = {
    action: 'status',
    phase: found.phase,
    probe: found.probe,
    invocations: found.invocations,
    entry:
      found.entry === undefined
        ? null
        : {
            file: found.entry.file.state,
            owned: found.entry.owned.state,
            nextStep: found.entry.nextStep.code,
          },
    nextStep: found.nextStep,
    error: found.error === undefined ? null : failureJSON(found.error),
  };
  if (json) writeJSON(io, result);
  else {
    // With an error the state could not be read: "nothing in progress" would not be known.
    const phase =
      found.phase !== 'none'
        ? found.phase
        : result.error === null
          ? 'nothing in progress'
          : 'state not readable';
    const lines = [`qualify: ${phase}`];
    // The error that next step's "fix what the error names" refers to, reason and path.
    if (result.error !== null)
      lines.push(
        `error: ${errorLine(result.error)
          .replace(/^cursorhooks: /, '')
          .trimEnd()}`,
      );
    if (found.probe !== null) lines.push(...probeLines(found.probe));
    if (found.invocations.length > 0) lines.push(recordedLine(found.invocations));
    lines.push(`next: ${found.nextStep.sentence}`);
    if (found.nextStep.command !== null) lines.push(`  ${found.nextStep.command}`);
    io.stdout(`${lines.join('\n')}\n`);
  }
  return ExitCode.Ok;
}

function recordedLine(invocations: readonly InvocationReport[]): string {
  const matched = invocations.filter((report) => report.matched).length;
  const versionless = invocations.filter((report) => !report.versionReported).length;
  const ignored =
    versionless === 0 ? '' : `, ${versionless} reporting no Cursor version (finish ignores them)`;
  return `recorded: ${invocations.length} stop invocation(s), ${matched} matching${ignored}`;
}

function probeLines(probe: ProbeView): string[] {
  return [
    `family: ${probe.family}`,
    `hooks file: ${probe.hooksFile}`,
    `probe directory: ${probe.directory}`,
    `probe command: ${probe.command}`,
  ];
}

const DONE: Readonly<Record<Exclude<Action, 'status'>, string>> = {
  start:
    'the probe entry is installed. In Cursor, finish one agent turn (IDE: send the agent a short message; CLI: an interactive session, not -p), then run qualify finish',
  finish: 'the record is written; the probe entry and directory are removed',
  cancel: 'the probe entry and directory are removed; no record was written',
};

function text(
  action: Exclude<Action, 'status'>,
  outcome: QualifyOutcome,
  stateDir: string,
): string {
  const lines: string[] = [];
  if (outcome.status === 'done') lines.push(`qualify ${action}: ${DONE[action]}`);
  else if (outcome.status === 'no-op') lines.push(`qualify ${action}: nothing in progress`);
  else
    lines.push(`qualify ${action}: ${outcome.status}; run qualify status --state-dir ${stateDir}`);
  if (outcome.probe !== null) lines.push(...probeLines(outcome.probe));
  // The id the record registers and where it is: what install and update need next.
  const { record, out, invocations } = outcome as Partial<FinishOutcome>;
  // Finish's own report of stops it ignored, which the record's run counts too.
  if (invocations?.some((report) => !report.versionReported)) lines.push(recordedLine(invocations));
  if (record != null && out != null) {
    lines.push(
      `contract: ${record.id}`,
      `record: ${out}`,
      `  use it with --shell ${quoteWord(record.id)} --contract-file ${quoteWord(out)}`,
    );
  }
  const error = outcome.error;
  if (error instanceof ProbeArgvMismatchError) {
    for (const report of error.invocations.filter((r) => !r.matched)) {
      lines.push(`recording ${report.recording}:`);
      for (const token of report.tokens.filter((t) => !t.equal)) {
        lines.push(
          `  token ${token.index}: meant ${JSON.stringify(token.intended)}, got ${JSON.stringify(token.recorded)}`,
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
