/** `host:port` of an AMQP URL, without credentials, for logs and error messages. */
export function brokerAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const port = parsed.port || (parsed.protocol === 'amqps:' ? '5671' : '5672');
    return `${parsed.hostname}:${port}`;
  } catch {
    return '(unparseable AMQP URL)';
  }
}

/** An error message with the URL (and so its password) removed, in case a client library quoted it. */
export function redact(message: string, url: string): string {
  return url ? message.split(url).join(brokerAddress(url)) : message;
}

/** The message of `start()` when the first connection did not come up in time. */
export function unreachableMessage(url: string, timeoutMs: number, lastError?: string): string {
  const cause = lastError ? ` (last error: ${redact(lastError, url)})` : '';
  return (
    `RabbitMQ is not reachable at ${brokerAddress(url)}${cause}; gave up waiting after ${timeoutMs} ms. ` +
    'Start it with `rabbitmq-server -detached` (or point AMQP_URL at a running broker). ' +
    'The event bus keeps retrying in the background until close().'
  );
}

/** True when the broker refused the credentials, which waiting will not fix. */
export function isAccessRefused(err: Error): boolean {
  return /ACCESS[-_]REFUSED/.test(err.message);
}

/** Exponential backoff with ±20 % jitter, from `initialMs` doubling up to `maxMs`. */
export class Backoff {
  private current: number;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {
    this.current = initialMs;
  }

  /** The next delay; each call doubles the following one. */
  next(): number {
    const delay = this.current;
    this.current = Math.min(this.current * 2, this.maxMs);
    return Math.round(delay * (0.8 + Math.random() * 0.4));
  }

  reset(): void {
    this.current = this.initialMs;
  }
}
