import type { EventActor } from '@kasa/contracts';
import { identityOf } from '@kasa/service-kit';
import type { Request, Response } from 'express';

/**
 * The client address of a request as the audit log records it: the gateway's `X-Forwarded-For` (the app trusts the
 * loopback proxy), else the socket's address.
 */
export function clientIpOf(req: Request): string | undefined {
  const ip = req.ip ?? req.socket.remoteAddress;
  return ip ? ip.slice(0, 64) : undefined;
}

/** Who is acting through this request (the gateway's identity) and from where. */
export function actorOf(req: Request, res: Response): EventActor {
  const ip = clientIpOf(req);
  return { userId: identityOf(res).userId, ...(ip ? { clientIp: ip } : {}) };
}
