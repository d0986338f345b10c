import { spawn } from 'node:child_process';
import express from 'express';
import { createLogger } from './logger';
import { LISTEN_BACKLOG, startServer } from './server';

/** More connections at once than Node's default listen backlog (511) holds. */
const BURST = 800;

/**
 * Opens BURST connections at once and prints how many the kernel completed within 900 ms: a connection past a full
 * listen queue has its SYN dropped and completes only when the SYN is sent again, after 1 s.
 */
const BURST_CLIENT = `
const net = require('node:net');
const started = Date.now();
let quick = 0;
const sockets = [];
for (let i = 0; i < ${BURST}; i++) {
  const socket = net.connect(Number(process.argv[1]), '127.0.0.1', () => { if (Date.now() - started < 900) quick++; });
  socket.on('error', () => {});
  sockets.push(socket);
}
setTimeout(() => { process.stdout.write(String(quick)); for (const s of sockets) s.destroy(); }, 1_000);
`;

/** Keeps this process's event loop busy (nothing is accepted meanwhile), as a service under load is. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // a service busy with other work
  }
}

describe('startServer', () => {
  it('holds a burst of connections opened while the service is busy, instead of dropping them', async () => {
    expect(BURST).toBeLessThan(LISTEN_BACKLOG);
    const running = await startServer({
      app: express(),
      port: 0,
      logger: createLogger({ service: 'server-test', version: '0', level: 'silent' }),
      handleSignals: false,
    });
    try {
      const client = spawn(process.execPath, ['-e', BURST_CLIENT, String(running.port)]);
      let printed = '';
      client.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      const exited = new Promise((resolve) => client.once('exit', resolve));
      // The client starts and opens its connections while this process accepts none.
      busyFor(2_500);
      await exited;
      expect(Number(printed)).toBe(BURST);
    } finally {
      await running.stop();
    }
  });
});
