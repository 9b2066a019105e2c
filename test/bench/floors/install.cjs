// The floor under any durable install: the syscalls a real `cursorhooks install` makes that must
// reach the disk, with no kit around them. Two lock records (written, fsynced, linked), the
// ledger's pending record and its directory, the hook file and its directory, the ledger's commit:
// seven fsyncs, as strace counts for the real call. Arguments: the hook file and the ledger.
const fs = require('node:fs');
const path = require('node:path');

const [hooks, ledger] = process.argv.slice(2);
const synced = (file, bytes) => {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, 'wx', 0o600);
  fs.writeSync(fd, bytes);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  return temp;
};
const syncDirectory = (file) => {
  const fd = fs.openSync(path.dirname(file), 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
};
const lock = (file) => {
  const temp = synced(file, JSON.stringify({ pid: process.pid }));
  fs.linkSync(temp, `${file}.lock`);
  fs.unlinkSync(temp);
};
const replace = (file, bytes) => fs.renameSync(synced(file, bytes), file);

const text = fs.readFileSync(hooks, 'utf8');
lock(hooks);
lock(ledger);
replace(ledger, '{"pending":true}\n');
syncDirectory(ledger);
replace(hooks, `${text}\n`);
syncDirectory(hooks);
replace(ledger, '{"pending":false}\n');
fs.unlinkSync(`${ledger}.lock`);
fs.unlinkSync(`${hooks}.lock`);
