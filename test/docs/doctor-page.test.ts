// docs/doctor.md against the tables it describes: every finding code, severity, source, known
// event, entry field and option of doctor is in the code once, and must be on the page too.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FINDING_SENTENCES, SEVERITIES, SOURCES } from '../../src/advice/findings.js';
import { CLAUDE_EVENTS, ENTRY_FIELDS, KNOWN_EVENTS } from '../../src/advice/known-events.js';
import { doctorCommand } from '../../src/cli/commands/doctor.js';
import { enterpriseHooksPath } from '../../src/node/doctor/sources.js';
import { page, ROOT } from './pages.js';

const TEXT = page('docs/doctor.md').text;
const schema = JSON.parse(readFileSync(new URL('schemas/doctor-result.json', ROOT), 'utf8'));

/** Each `#### \`code\`` section of the page: its code and its text up to the next heading. */
function codeSections(): Map<string, string> {
  const sections = new Map<string, string>();
  for (const match of TEXT.matchAll(/^#### `([^`]+)`\n([\s\S]*?)(?=^#{1,4} |(?![\s\S]))/gm)) {
    const [, code = '', body = ''] = match;
    expect(sections.has(code), `${code} has two sections`).toBe(false);
    sections.set(code, body);
  }
  return sections;
}

/** The rows of the Markdown table whose header row is `header`, as their cells. */
function tableRows(header: string): string[][] {
  const start = TEXT.indexOf(`${header}\n`);
  expect(start, `no table headed ${header}`).toBeGreaterThanOrEqual(0);
  const lines = TEXT.slice(start).split('\n').slice(2);
  const rows = lines.slice(
    0,
    lines.findIndex((line) => !line.startsWith('|')),
  );
  return rows.map((row) => row.split(' | ').map((cell) => cell.replace(/^\| |\s\|$/g, '')));
}

const CODES = Object.keys(FINDING_SENTENCES);

describe('docs/doctor.md', () => {
  it.each(CODES)(
    'has a section for %s saying its severity, what Cursor does and what to do (red: a finding code was added without its documentation)',
    (code) => {
      const body = codeSections().get(code);
      expect(body, `no "#### \`${code}\`" section`).toBeDefined();
      expect(body).toMatch(/^- \*\*Severity:\*\* `(voids-file|voids-entry|fires-twice|advice)`/m);
      expect(body).toMatch(/^- \*\*Cursor:\*\* \S/m);
      expect(body).toMatch(/^- \*\*What to do:\*\* \S/m);
    },
  );

  it('documents no finding code the code does not have (red: a code was renamed or removed and its section stayed)', () => {
    expect([...codeSections().keys()].sort()).toEqual([...CODES].sort());
  });

  it('names the codes the result schema allows, and only those (red: the schema and the sentence table drifted apart, so one of them is not what the page documents)', () => {
    expect(schema.$defs.finding.properties.code.enum).toEqual(CODES);
  });

  it('lists every severity, worst first, as the code orders them (red: a severity was added, renamed or reordered without the page)', () => {
    const listed = tableRows('| severity | meaning |').map(([severity]) => severity);
    expect(listed).toEqual(SEVERITIES.map((severity) => `\`${severity}\``));
  });

  it("lists every source in Cursor's order, with each platform's enterprise file (red: a source or an enterprise path changed without the page)", () => {
    const rows = tableRows('| rank | `source` | file |');
    expect(rows.map(([, source]) => source)).toEqual(SOURCES.map((source) => `\`${source}\``));
    const enterprise = rows[0]?.[2] ?? '';
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      expect(enterprise).toContain(`\`${enterpriseHooksPath(platform)}\``);
    }
  });

  it('names every known event, Claude Code event and checked entry field (red: the known-events table grew and the page still calls the new name unknown)', () => {
    const unknown = TEXT.slice(TEXT.indexOf('#### `event-unknown`'));
    for (const event of KNOWN_EVENTS) expect(unknown).toContain(`\`${event}\``);
    for (const event of Object.keys(CLAUDE_EVENTS)) expect(TEXT).toContain(`\`${event}\``);
    const fieldType = codeSections().get('field-type') ?? '';
    for (const field of Object.keys(ENTRY_FIELDS)) expect(fieldType).toContain(`\`${field}\``);
  });

  it('lists every option of doctor and every value of `owned` (red: doctor gained an option or a state the page does not explain)', () => {
    const options = tableRows('| option | what it does |').map(([option]) => option);
    for (const name of [...Object.keys(doctorCommand.options), 'json']) {
      expect(
        options.some((cell) => cell?.startsWith(`\`--${name}`)),
        name,
      ).toBe(true);
    }
    for (const owned of schema.properties.owned.enum) expect(TEXT).toContain(`\`${owned}\``);
  });
});
