import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { planCommand } from '../../src/cli/commands/plan.js';
import { verifyCommand } from '../../src/cli/commands/verify.js';
import { LinuxUserShell32212 } from '../../src/index.js';
import type { CliOutcome } from '../demo/lifecycle.js';
import { base64, cli, installRequest, pretty, SPEC } from './support.js';

// The shipped schemas, checked with a real draft 2020-12 validator against what the CLI prints.
const DIRECTORY = new URL('../../schemas/', import.meta.url);
const FILES = readdirSync(DIRECTORY).filter((file) => file.endsWith('.json'));
const SCHEMAS = FILES.map(
  (file) => JSON.parse(readFileSync(new URL(file, DIRECTORY), 'utf8')) as Record<string, unknown>,
);
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
for (const schema of SCHEMAS) ajv.addSchema(schema);

function matches(name: string, value: unknown): boolean {
  const validate = ajv.getSchema(`urn:cursorhooks:schema:${name}`);
  if (validate === undefined) throw new Error(`no schema ${name}`);
  return validate(value) as boolean;
}

function expectMatch(name: string, value: unknown): void {
  const validate = ajv.getSchema(`urn:cursorhooks:schema:${name}`);
  expect(validate?.(value), `${name}: ${ajv.errorsText(validate?.errors)}`).toBe(true);
}

/** Runs the CLI and checks stdout (exit 0) or stderr (otherwise) against its schema. */
async function checked(args: string[], result: string, stdin = ''): Promise<CliOutcome> {
  const outcome = await cli(args, stdin);
  if (outcome.exitCode === 0) {
    expect(outcome.stderr).toBe('');
    expectMatch(result, JSON.parse(outcome.stdout));
  } else {
    expect(outcome.stdout).toBe('');
    expectMatch('error', JSON.parse(outcome.stderr));
  }
  return outcome;
}

/** `plan` with the request checked against the request schema first. */
async function planChecked(request: Record<string, unknown>) {
  expectMatch('plan-request', request);
  const outcome = await checked(['plan'], 'plan-result', JSON.stringify(request));
  return JSON.parse(outcome.stdout || 'null') as { desired: string; receipt: unknown } | null;
}

describe('the shipped JSON Schemas', () => {
  it('are draft 2020-12 with an $id named after their file, and compile in strict mode (red: a schema is broken or misnamed)', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(11);
    for (const [index, schema] of SCHEMAS.entries()) {
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toBe(`urn:cursorhooks:schema:${FILES[index]?.replace(/\.json$/, '')}`);
      expect(() => ajv.getSchema(schema.$id as string)).not.toThrow();
    }
  });

  it('list exactly the request fields the commands declare (red: schema and parser drift apart)', () => {
    for (const [name, command] of [
      ['plan-request', planCommand],
      ['verify-request', verifyCommand],
    ] as const) {
      const schema = SCHEMAS.find((s) => s.$id === `urn:cursorhooks:schema:${name}`);
      const declared = command.request ?? {};
      expect(Object.keys(schema?.properties as object).sort()).toEqual(
        Object.keys(declared).sort(),
      );
      const required = Object.keys(declared).filter((key) => declared[key]?.required === true);
      expect(schema?.required).toEqual(required);
    }
  });

  it('match every plan request and result of a whole lifecycle (red: plan output breaks its schema)', async () => {
    const installed = await planChecked(installRequest(pretty({ version: 1 })));
    const updated = await planChecked({
      document: installed?.desired,
      operation: 'update',
      specs: [{ ...SPEC, selector: '/srv/stop-v2.json' }],
      previous: installed?.receipt,
      shell: LinuxUserShell32212,
      executableVerified: true,
    });
    const removed = await planChecked({
      documentBase64: base64(updated?.desired ?? ''),
      operation: 'remove',
      previous: updated?.receipt,
    });
    expect(removed?.receipt).toBeNull();
    const repaired = await planChecked({
      document: removed?.desired,
      operation: 'repair',
      previous: updated?.receipt,
      executableVerified: true,
    });
    const verifyRequest = { document: repaired?.desired, receipt: repaired?.receipt };
    expectMatch('verify-request', verifyRequest);
    await checked(['verify'], 'verify-result', JSON.stringify(verifyRequest));
    expectMatch('receipt', repaired?.receipt);
  });

  it.each([
    [
      ['render-argv', '--json', '--shell', LinuxUserShell32212, '--', 'a b', "it's"],
      'render-argv-result',
    ],
    [['contracts', '--json'], 'contracts-result'],
    [['help', '--json'], 'help-result'],
    [['help', 'render-argv', '--json'], 'help-result'],
    [['plan', '--help', '--json'], 'help-result'],
    [['--version', '--json'], 'version-result'],
  ])('match the output of %j (red: a result breaks its schema)', async (args, result) => {
    expect((await checked(args, result)).exitCode).toBe(0);
  });

  it.each([
    [['plan'], '{"operation": "install", "shel": 1}', 2],
    [['plan'], '{"operation": 1}', 2],
    [['plan'], '[]', 2],
    [['plan', '--bogus'], '', 2],
    [['render-argv', '--json', '--shell'], '', 2],
    [['nope', '--json'], '', 2],
    [['plan'], JSON.stringify(installRequest('{"version":2}')), 1],
    [['plan'], JSON.stringify({ ...installRequest(null), shell: 'cursor-bogus' }), 1],
    [['plan'], JSON.stringify({ ...installRequest(null), executableVerified: false }), 1],
    [['verify'], JSON.stringify({ document: null, receipt: { version: 1 } }), 1],
    [['render-argv', '--json', '--shell', LinuxUserShell32212, '--', '$x'], '', 1],
  ])(
    'match the error of %j on stdin %j, exit %i (red: a failure breaks the one error shape)',
    async (args, stdin, code) => {
      expect((await checked(args, 'error', stdin)).exitCode).toBe(code);
    },
  );

  it('match the absence-unproven refusal of verify (red: an error kind is missing from the schema)', async () => {
    const installed = await planChecked(installRequest(null));
    const outcome = await checked(
      ['verify'],
      'verify-result',
      JSON.stringify({ document: null, receipt: installed?.receipt }),
    );
    expect(JSON.parse(outcome.stderr).error.kind).toBe('absence-unproven');
  });

  // Each request both ways: the CLI's usage verdict and the schema's must agree.
  it.each([
    [{ operation: 'install' }, true],
    [{ operation: 'remove', previous: null, document: null, documentBase64: null }, true],
    [{ ...installRequest('{}'), documentBase64: null }, true],
    [{}, false],
    [{ operation: 'reinstall' }, false],
    [{ operation: 'install', shel: 'x' }, false],
    [{ operation: 'install', document: {} }, false],
    [{ operation: 'install', executableVerified: 'true' }, false],
    [{ operation: 'install', specs: [{ executable: '/e' }] }, false],
    [{ operation: 'install', specs: [{ executable: '/e', selector: '/s', x: 1 }] }, false],
    [{ operation: 'install', previous: [] }, false],
    [{ operation: 'install', shell: null }, false],
    [{ operation: 'install', document: '{}', documentBase64: 'e30=' }, false],
  ])(
    'agree with the CLI on plan request %j (red: the schema documents another protocol)',
    async (request, valid) => {
      expect(matches('plan-request', request)).toBe(valid);
      const { exitCode } = await cli(['plan'], JSON.stringify(request));
      expect(exitCode === 2).toBe(!valid);
    },
  );
});
