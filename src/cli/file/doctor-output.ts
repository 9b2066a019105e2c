// doctor's two outputs. Both are made of positions, paths the user gave and fixed sentences:
// nothing read from a hook file (no command, matcher or key) can reach them.
import type { Finding } from '../../advice/findings.js';
import type { Diagnosis, SourceReport } from '../../node/doctor/diagnose.js';

const OWNED_SENTENCES: Readonly<Record<Diagnosis['owned'], string>> = {
  none: 'no receipt of ours for the user file: owned-elsewhere and owned-missing were not checked',
  receipted: "the ledger's receipt names our command: it was looked for in every source",
  'contract-unknown':
    "the receipt's shell contract is not registered: pass its --contract-file to look for our command",
  'receipt-unproven': 'the receipt does not render its own entry: our command was not looked for',
  'ledger-unreadable': 'the ledger could not be read: our command was not looked for',
};

/** The `--json` object (schema doctor-result). */
export function doctorResult(diagnosis: Diagnosis) {
  return {
    findings: diagnosis.findings,
    sources: diagnosis.sources,
    worst: diagnosis.worst,
    voided: diagnosis.voided,
    owned: diagnosis.owned,
  };
}

export function doctorText(diagnosis: Diagnosis): string {
  const { findings, voided } = diagnosis;
  const headline = voided
    ? 'doctor: something voids the user hook file or our entry (exit 1)'
    : findings.length === 0
      ? 'doctor: nothing found'
      : 'doctor: nothing voids the user hook file or our entry';
  const lines = [
    headline,
    `owned: ${OWNED_SENTENCES[diagnosis.owned]}`,
    'sources, in the order Cursor ranks them:',
  ];
  for (const source of diagnosis.sources)
    lines.push(`  ${sourceName(source)}: ${stateOf(source)}  ${source.path}`);
  lines.push(
    findings.length === 0 ? 'findings: none' : `findings (${findings.length}), worst first:`,
  );
  for (const found of findings) {
    lines.push(`  ${found.severity} ${found.code} in ${sourceName(found)}${placeOf(found)}`);
    lines.push(`    ${found.sentence}`);
  }
  return `${lines.join('\n')}\n`;
}

function sourceName(where: { source: string; workspace?: number | undefined }): string {
  return where.workspace === undefined
    ? where.source
    : `${where.source} (workspace ${where.workspace})`;
}

function stateOf(source: SourceReport): string {
  return source.state === 'unreadable' ? `unreadable [${source.reason}]` : source.state;
}

/** The position of a finding in words: numbers and names from our own tables only. */
function placeOf(found: Finding): string {
  const parts: string[] = [];
  if (found.line !== undefined) parts.push(`line ${found.line}, column ${found.column}`);
  const entryLevel = found.eventIndex !== undefined;
  const eventAt = entryLevel ? found.eventIndex : found.index;
  if (eventAt !== undefined) {
    parts.push(
      found.event === undefined
        ? `hooks member ${eventAt}`
        : `event ${found.event} (member ${eventAt})`,
    );
  }
  if (entryLevel) parts.push(`entry ${found.index}`);
  if (found.hook !== undefined) parts.push(`hook ${found.hook}`);
  if (found.field !== undefined) parts.push(`field ${found.field}`);
  if (found.also !== undefined) {
    parts.push(`also in ${sourceName({ source: found.also, workspace: found.alsoWorkspace })}`);
  }
  if (found.ours === true) parts.push('our entry');
  return parts.length === 0 ? '' : `: ${parts.join(', ')}`;
}
