// A host's own recorder executable, as the recorder protocol asks: for a probe's binding it
// records through recordProbeInvocation and answers {}; for any other it says so on stderr
// (a real host would handle the stop as usual). argv[1] is its own path, passed by its wrapper.
import { readFileSync } from 'node:fs';
import { recordProbeInvocation } from '../../../src/node/index.js';

const { recorded } = await recordProbeInvocation({
  argv: process.argv.slice(2),
  stdin: readFileSync(0),
});
if (recorded) process.stdout.write('{}\n');
else process.stderr.write('not a probe binding\n');
