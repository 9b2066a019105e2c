// The floor under any CommonJS observer that takes a package by a subpath: stdin-floor.cjs, plus
// one `require` of an empty module through an exports map of cursorhooks' shape, by name as
// observer-stop.cjs takes cursorhooks/observer. Node loads its ES resolver for any exports map,
// even under `require`; what the observer costs beyond this row is the kit's own code.
require('exports-floor/observer');

const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  JSON.parse(Buffer.concat(chunks).toString('utf8'));
  require('node:fs').writeSync(1, '{}\n');
});
