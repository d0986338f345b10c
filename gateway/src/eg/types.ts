import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessTokenClaims, VerifiedApiKey } from '@kasa/contracts';
import type { TraceContext } from '@kasa/service-kit';

/**
 * The slice of express-gateway's plugin API that Kasa uses (EG's own index.d.ts drags in Express 4 typings that
 * clash with the Express 5 ones of the services, so the few shapes are written out here).
 */

/** What a request looks like inside an EG pipeline: Node's request plus Express 4's and EG's additions. */
export interface GatewayRequest extends IncomingMessage {
  url: string;
  method: string;
  /** Express: the URL as received, before any router rewrote `url`. */
  originalUrl: string;
  /** Express: the client address, honouring the `trust proxy` setting. */
  ip?: string;
  /** Express: `http` or `https`, honouring the `trust proxy` setting. */
  protocol?: string;
  /** EG: per-request context; `apiEndpoint.apiEndpointName` names the matched API endpoint. */
  egContext?: { requestID?: string; apiEndpoint?: { apiEndpointName?: string } };
  /** Kasa: the request id (set by the request-id policy). */
  kasaRequestId?: string;
  /** Kasa: the gateway's span of this request; the services continue its trace (set by the request-id policy). */
  kasaTrace?: TraceContext;
  /** Kasa: the verified token's claims (set by the jwt policy), turned into x-kasa-* headers by the proxy. */
  kasaIdentity?: AccessTokenClaims;
  /** Kasa: the verified API key (set by the jwt policy instead of kasaIdentity when the caller sent a key). */
  kasaApiKey?: VerifiedApiKey;
}

export type GatewayResponse = ServerResponse;
export type Next = (err?: unknown) => void;
export type PolicyMiddleware = (req: GatewayRequest, res: GatewayResponse, next: Next) => void;

/** EG's view of gateway.config.yml, as far as policies read it. */
export interface EgConfig {
  gatewayConfig: {
    serviceEndpoints?: Record<string, { url?: string; urls?: string[] }>;
    /** Each pipeline's API endpoints (route names) and policy steps, as written in the YAML. */
    pipelines?: Record<string, { apiEndpoints?: string | string[]; policies?: unknown } | undefined>;
  };
}

/** A policy: a factory from the `action` parameters of a pipeline step to a middleware. */
export interface EgPolicy<P = Record<string, unknown>> {
  name: string;
  /** JSON Schema of the action parameters; EG validates every pipeline step against it at start-up. */
  schema: { $id: string; type: 'object'; properties?: Record<string, unknown>; required?: string[] };
  policy: (params: P, config: EgConfig) => PolicyMiddleware;
}

export interface EgPluginContext {
  registerPolicy(policy: EgPolicy<never>): void;
  registerGatewayRoute(declaration: (app: unknown) => void): void;
  settings: Record<string, unknown>;
}

export interface EgPlugin {
  version: string;
  policies: string[];
  schema: { $id: string; type: 'object' };
  init(context: EgPluginContext): void;
}
