// The shipped JSON Schemas, compiled once with a real draft 2020-12 validator, for the tests
// that check real CLI output against them.
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

const DIRECTORY = new URL('../../schemas/', import.meta.url);
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
for (const file of readdirSync(DIRECTORY).filter((name) => name.endsWith('.json'))) {
  ajv.addSchema(JSON.parse(readFileSync(new URL(file, DIRECTORY), 'utf8')) as object);
}

/** `value` matches schemas/`name`.json. */
export function expectSchema(name: string, value: unknown): void {
  const validate = ajv.getSchema(`urn:cursorhooks:schema:${name}`);
  if (validate === undefined) throw new Error(`no schema ${name}`);
  expect(validate(value), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}
