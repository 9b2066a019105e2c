import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { LinuxUserShell32212, Operation, plan } from 'cursorhooks';

// The schemas are files of the package; find their folder through its exports.
const require = createRequire(import.meta.url);
const folder = dirname(require.resolve('cursorhooks/schemas/error.json'));

// They refer to each other by urn: id, so load every one before compiling any.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
  ajv.addSchema(JSON.parse(readFileSync(join(folder, file), 'utf8')));
}

const installed = plan({
  operation: Operation.Install,
  specs: [{ executable: '/opt/acme/bin/acme-notify', selector: '/opt/acme/stop.json' }],
  shell: LinuxUserShell32212,
  executableVerified: true,
});
const validateReceipt = ajv.getSchema('urn:cursorhooks:schema:receipt');
assert.ok(validateReceipt);
assert.equal(validateReceipt(installed.receipt?.toJSON()), true);

// One schema alone does not compile: its $ref names another schema's id.
const receiptAlone = JSON.parse(readFileSync(join(folder, 'receipt.json'), 'utf8'));
assert.throws(() => new Ajv2020({ strict: true }).compile(receiptAlone), /can't resolve reference/);
