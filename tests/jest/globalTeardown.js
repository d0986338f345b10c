const fs = require('node:fs');

module.exports = async function globalTeardown() {
  const mongo = globalThis.__KASA_MONGO__;
  if (!mongo) return;
  await mongo.stop();
  fs.rmSync(mongo.dataDir, { recursive: true, force: true });
};
