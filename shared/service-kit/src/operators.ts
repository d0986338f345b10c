import type { RequestHandler } from 'express';
import { NotFoundError, ServiceUnavailableError } from './errors';
import { identityOf, requireIdentity } from './identity';

/** Whether a person may act as an operator, as the auth service says it now (operator flag, configured e-mail). */
export interface OperatorCheck {
  isOperator(userId: string): Promise<boolean>;
}

/**
 * Asks the auth service, which owns the operator role, on every call: `GET <auth>/internal/operators/<id>` (services
 * only; the gateway routes no `/internal` path). Operator routes are rare, so there is no cache to go stale: a demoted
 * or suspended operator is refused at their next request.
 */
export class AuthOperatorCheck implements OperatorCheck {
  constructor(
    private readonly authServiceUrl: string,
    private readonly timeoutMs = 3_000,
  ) {}

  async isOperator(userId: string): Promise<boolean> {
    const url = `${this.authServiceUrl.replace(/\/$/, '')}/internal/operators/${encodeURIComponent(userId)}`;
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
    } catch {
      throw new ServiceUnavailableError('The operator role could not be checked; try again in a moment');
    }
    if (!res.ok) throw new ServiceUnavailableError('The operator role could not be checked; try again in a moment');
    const body = (await res.json().catch(() => ({}))) as { operator?: unknown };
    return body.operator === true;
  }
}

/**
 * The middleware in front of a service's `/api/admin/*` routes: the gateway's identity, then the operator role. To
 * anyone else the routes do not exist (404, as an unknown path). Answers are never cached by browsers or proxies.
 */
export function operatorsOnly(check: OperatorCheck): RequestHandler[] {
  const operator: RequestHandler = (_req, res, next) => {
    check
      .isOperator(identityOf(res).userId)
      .then((yes) => {
        if (!yes) return next(new NotFoundError());
        res.set('Cache-Control', 'no-store');
        next();
      })
      .catch(next);
  };
  return [requireIdentity(), operator];
}
