#!/usr/bin/env node
/**
 * The operator command: `npm run kasa -- <command>` (`npm run kasa` alone lists the commands). It acts on the platform
 * that `npm start` runs on this machine, with the same settings (scripts/launcher.js's environment; what the shell
 * sets wins, e.g. MONGO_URL for a deployment's database), through the auth service's own code
 * (services/auth/src/operators/operatorCommand.ts). Kasa must be built (npm start builds it).
 */
const fs = require('node:fs');
const path = require('node:path');
const { launcherEnv } = require('./launcher');

const entry = path.resolve(__dirname, '../services/auth/dist/operators/operatorCommand.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('Kasa is not built yet: run `npm run build` (or `npm start`) first.\n');
  process.exit(1);
}
Object.assign(process.env, launcherEnv(process.env, { dev: false }));
// Only errors: the command prints its own results.
process.env.LOG_LEVEL ??= 'error';
const { main } = require(entry);
main(process.argv.slice(2)).then((code) => process.exit(code));
