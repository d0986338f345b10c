// @ts-check
/** Web budgets: first-load JavaScript of `/`, each remoteEntry, and the largest contentful paint of `/`. */
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KB gzip`;

function webRows() {
  const script = path.resolve(__dirname, '../../frontends/shell/scripts/size.js');
  const report = JSON.parse(execFileSync(process.execPath, [script, '--json', '--no-fail'], { encoding: 'utf8' }));
  return [
    {
      name: 'web: first-load JS of / (shell + remote)',
      budget: '≤ 200 KB gzip',
      measured: kb(report.firstLoadGzip),
      ok: report.firstLoadGzip <= 200 * 1024,
    },
    ...report.remoteEntries.map((/** @type {{ remote: string, gzipBytes: number }} */ entry) => ({
      name: `web: ${entry.remote} remoteEntry.js`,
      budget: '≤ 30 KB gzip',
      measured: kb(entry.gzipBytes),
      ok: entry.gzipBytes <= 30 * 1024,
    })),
    {
      name: 'web: largest contentful paint of / (median of 3)',
      budget: '≤ 1000 ms',
      measured: `${report.lcpMs} ms`,
      ok: report.lcpMs <= 1000,
    },
  ];
}

module.exports = { webRows };
