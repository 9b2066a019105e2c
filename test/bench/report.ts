// Plain-text tables and the targets summary. Numbers are right-aligned, text left-aligned.

export type Cell = string | number;

export interface Table {
  readonly title: string;
  /** Lines printed under the title: what the rows measure and how to read them. */
  readonly notes?: readonly string[];
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
}

/** One target of the brief: PASS, FAIL, or `undefined` for rows that only report. */
export interface Target {
  readonly group: string;
  readonly name: string;
  readonly goal: string;
  readonly measured: string;
  readonly pass: boolean | undefined;
}

/** What a benchmark group hands back to the runner. */
export interface GroupReport {
  readonly tables: readonly Table[];
  readonly targets: readonly Target[];
}

/** Milliseconds with enough digits to tell rows apart. */
export function ms(value: number): string {
  if (value >= 100) return value.toFixed(1);
  if (value >= 1) return value.toFixed(2);
  if (value >= 0.01) return value.toFixed(3);
  return value.toPrecision(2);
}

/** A ratio such as `0.118×`. */
export function times(value: number): string {
  return `${value >= 100 ? value.toFixed(0) : value.toPrecision(3)}×`;
}

export function bytes(value: number): string {
  return `${value.toLocaleString('en')} B (${(value / (1024 * 1024)).toFixed(2)} MiB)`;
}

export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

export const verdict = (pass: boolean | undefined): string =>
  pass === undefined ? 'report' : pass ? 'PASS' : 'FAIL';

function render(cell: Cell): string {
  return typeof cell === 'number' ? String(cell) : cell;
}

const numeric = (text: string) => /^[-+]?[\d.,]+(e[-+]?\d+)?[×%]?$/.test(text);

export function printTable(table: Table): void {
  const cells = table.rows.map((row) => row.map(render));
  const widths = table.columns.map((name, i) =>
    Math.max(name.length, ...cells.map((row) => (row[i] ?? '').length)),
  );
  const line = (row: readonly string[], header: boolean) =>
    row
      .map((text, i) => {
        const width = widths[i] ?? 0;
        return !header && numeric(text) ? text.padStart(width) : text.padEnd(width);
      })
      .join(' │ ')
      .trimEnd();
  console.log(`\n${table.title}`);
  for (const note of table.notes ?? []) console.log(`  ${note}`);
  console.log(line(table.columns, true));
  console.log(widths.map((width) => '─'.repeat(width)).join('─┼─'));
  for (const row of cells) console.log(line(row, false));
}

/** The final, unmissable list of every target with its verdict and measured figure. */
export function printSummary(targets: readonly Target[]): void {
  const failed = targets.filter((t) => t.pass === false).length;
  const passed = targets.filter((t) => t.pass === true).length;
  const bar = '═'.repeat(100);
  console.log(`\n${bar}`);
  console.log(
    `BENCHMARK SUMMARY: ${passed} PASS, ${failed} FAIL, ` +
      `${targets.length - passed - failed} report-only (benchmarks never fail the build)`,
  );
  console.log(bar);
  printTable({
    title: 'Targets',
    columns: ['verdict', 'group', 'target', 'goal', 'measured'],
    rows: targets.map((t) => [verdict(t.pass), t.group, t.name, t.goal, t.measured]),
  });
  console.log(bar);
  if (failed > 0) {
    console.log(`${failed} target(s) MISSED:`);
    for (const t of targets.filter((t) => t.pass === false)) {
      console.log(`  FAIL  ${t.group}: ${t.name}: ${t.measured} (goal ${t.goal})`);
    }
  } else {
    console.log('All targets met.');
  }
  console.log(bar);
}
