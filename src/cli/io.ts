/** Where a command writes; `main.ts` wires it to the process streams, tests to strings. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Standard input: the process stream, or the whole request at once. */
export type CliInput = AsyncIterable<Uint8Array> | Uint8Array;

export function writeJSON(io: CliIO, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}
