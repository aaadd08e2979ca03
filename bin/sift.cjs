#!/usr/bin/env node
'use strict';
// The `sift` command from a checkout: runs the TypeScript sources through tsx, so
// `npm ci` is the only step before `npx sift` works.
const path = require('node:path');
const { register } = require('tsx/cjs/api');
register({ tsconfig: path.join(__dirname, '..', 'tsconfig.node.json') });
require('../src/cli/main.ts')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  })
  .catch((err) => {
    process.stderr.write(`sift: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 2;
  });
