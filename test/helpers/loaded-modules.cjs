// Loaded with `node --require`: at exit, writes `loaded: <modules>` to stdout (straight to the descriptor, so as not to
// load anything itself): the names in process.moduleLoadList that match LOADED_MODULES_MATCH and were loaded after it.
'use strict';
const { writeSync } = require('node:fs');
const before = new Set(process.moduleLoadList);
const match = new RegExp(process.env.LOADED_MODULES_MATCH ?? '.');
process.on('exit', () => {
  const loaded = process.moduleLoadList.filter((m) => !before.has(m) && match.test(m));
  writeSync(1, `loaded: ${loaded.join(',')}\n`);
});
