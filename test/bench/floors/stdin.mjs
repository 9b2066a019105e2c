// The same floor as stdin.cjs, as an ES module: what Node's ES loader adds by itself.
import { writeSync } from 'node:fs';

const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  JSON.parse(Buffer.concat(chunks).toString('utf8'));
  writeSync(1, '{}\n');
});
