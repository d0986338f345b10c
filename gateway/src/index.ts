import { createLogger, packageVersion, runMain } from '@kasa/service-kit';
import { loadGatewayConfig } from './config';
import { startGateway } from './gateway';

const version = packageVersion(__dirname);

/** Wiring only: config (fails fast, naming every wrong variable) → logger → gateway → graceful shutdown. */
runMain(async () => {
  const config = loadGatewayConfig();
  const logger = createLogger({ service: 'gateway', version, level: config.LOG_LEVEL });
  const gateway = await startGateway(config, { logger });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      gateway.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
});
