// Copies the protocol's .proto files from the repository's proto/ into this
// folder's proto/ (run by `npm ci` / `npm install`). The jail shows the bot only
// its own folder, so the bot loads its copy at run time; the copy is made
// afresh at every build and never committed, so it cannot drift from the
// repository's.
'use strict';
const fs = require('fs');
const path = require('path');

const PACKAGES = ['tournament', 'gnadenlos', 'saboteur', 'leduc'];
const source = path.resolve(__dirname, '..', '..', '..', 'proto');
const target = path.resolve(__dirname, '..', 'proto');

if (!fs.existsSync(path.join(source, 'tournament', 'v1', 'tournament.proto'))) {
  console.error(`copy-protos: no ${source}/tournament/v1/tournament.proto; ` +
    'build the kit inside a checkout of the repository (examples/javascript)');
  process.exit(1);
}
fs.rmSync(target, { recursive: true, force: true });
for (const name of PACKAGES) {
  fs.cpSync(path.join(source, name), path.join(target, name), { recursive: true });
}
console.log(`copy-protos: ${PACKAGES.join(', ')} from ${source}`);
