// Starts one embedded MongoDB-wire server for the whole test run unless MONGO_URL points at a real MongoDB.
// Each test file uses its own database name, so files never see each other's data.
const os = require('node:os');
const path = require('node:path');
const fs = require('node:fs');
const { startEmbeddedMongo } = require('../../scripts/embedded-mongo');

module.exports = async function globalSetup() {
  if (process.env.MONGO_URL) return;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-test-db-'));
  // Outside dataDir, which the teardown removes: what the database printed outlives a failed run.
  const logFile = path.join(os.tmpdir(), `kasa-test-db-${process.env.KASA_TEST_LANE ?? 'run'}-${process.pid}.log`);
  const mongo = await startEmbeddedMongo({ dataDir, logFile });
  process.env.MONGO_URL = mongo.url;
  process.env.KASA_TEST_DB_LOG = logFile;
  process.env.KASA_TEST_DB_PID = String(mongo.process.pid);
  globalThis.__KASA_MONGO__ = { stop: mongo.stop, dataDir };
};
