import type { Request } from 'express';
import { isIP } from 'node:net';

/**
 * The caller's IP address: the first valid address of X-Forwarded-For (the gateway appends the address it saw, so
 * behind a load balancer the first one is the client's), else the socket's address. A client can put any address
 * first; that only changes its own answer, as `?ip=` does.
 */
export function callerAddress(req: Request): string | undefined {
  const forwarded = req.get('x-forwarded-for');
  if (forwarded) {
    for (const entry of forwarded.split(',')) {
      const ip = withoutPort(entry.trim());
      if (isIP(ip)) return ip;
    }
  }
  return req.socket.remoteAddress;
}

/** `1.2.3.4:5678` → `1.2.3.4`, `[2001:db8::1]:443` → `2001:db8::1`; anything else unchanged. */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(entry);
  return v4 ? v4[1]! : entry;
}
