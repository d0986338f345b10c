#!/usr/bin/env node
// Adds lockfile entries for platform-specific optional packages that this machine's npm registry
// does not serve (darwin, win32, android… builds of @swc/core and unrs-resolver). Without them
// `npm install` silently drops the entries and `npm ci` then refuses the lockfile as out of sync.
// The added entries carry os/cpu/libc, so npm skips them on every other platform and never fetches them.
// Run after any `npm install` that rewrites package-lock.json: `node scripts/complete-lockfile.js`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

/** Reads os, cpu and libc from a binding package name such as `core-linux-arm64-musl`. */
function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'sunos', 'aix'].find((o) =>
    tokens.includes(o),
  );
  const cpu = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32'].find((c) =>
    tokens.includes(c),
  );
  const libc =
    tokens.includes('musl') || tokens.includes('musleabihf')
      ? 'musl'
      : tokens.includes('gnu') || tokens.includes('gnueabihf')
        ? 'glibc'
        : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  const optional = entry.optionalDependencies ?? {};
  for (const [dep, range] of Object.entries(optional)) {
    const base = location === '' ? '' : `${location}/`;
    const nested = `${base}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[nested] || packages[hoisted]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os || !cpu) continue; // only platform builds are completed; anything else is a real gap
    packages[hoisted] = {
      version: String(range).replace(/^[\^~=]/, ''),
      cpu: [cpu],
      license: entry.license,
      optional: true,
      os: [os],
      ...(libc ? { libc: [libc] } : {}),
      ...(entry.engines ? { engines: entry.engines } : {}),
    };
    added += 1;
  }
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entr${added === 1 ? 'y' : 'ies'}`);
