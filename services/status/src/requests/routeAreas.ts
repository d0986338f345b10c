/** The services the status page lists, in its order. */
export const PLATFORM_SERVICES = ['gateway', 'auth', 'chat', 'voice', 'status'] as const;
export type PlatformService = (typeof PLATFORM_SERVICES)[number];

interface RouteArea {
  /** The service that answers the route. */
  service: PlatformService;
  /** The API area of the analytics breakdown. */
  area: string;
  /** Whether the gateway counts an admitted call on this route towards the plan's monthly quota. */
  monthlyQuota: boolean;
}

/** The gateway's API endpoint names (gateway/config/gateway.config.yml) and where they lead. */
const ROUTES: Record<string, RouteArea> = {
  openapi: { service: 'gateway', area: 'docs', monthlyQuota: false },
  authCredentials: { service: 'auth', area: 'auth', monthlyQuota: false },
  authPublic: { service: 'auth', area: 'auth', monthlyQuota: false },
  publicForms: { service: 'auth', area: 'auth', monthlyQuota: false },
  billingWebhooks: { service: 'auth', area: 'auth', monthlyQuota: false },
  auth: { service: 'auth', area: 'auth', monthlyQuota: false },
  authAdmin: { service: 'auth', area: 'auth', monthlyQuota: false },
  chatShared: { service: 'chat', area: 'chat', monthlyQuota: false },
  chat: { service: 'chat', area: 'chat', monthlyQuota: true },
  chatV1: { service: 'chat', area: 'chat', monthlyQuota: true },
  voicePublic: { service: 'voice', area: 'voice', monthlyQuota: false },
  voiceInfo: { service: 'voice', area: 'voice', monthlyQuota: false },
  voiceSynthesize: { service: 'voice', area: 'voice', monthlyQuota: true },
  voiceTranscribe: { service: 'voice', area: 'voice', monthlyQuota: true },
  voice: { service: 'voice', area: 'voice', monthlyQuota: true },
  statusPublic: { service: 'status', area: 'status', monthlyQuota: false },
  status: { service: 'status', area: 'analytics', monthlyQuota: false },
  statusAdmin: { service: 'status', area: 'status', monthlyQuota: false },
};

/** Unknown routes (the API 404, a route added later) are the gateway's own answers. */
const GATEWAY_OWN: RouteArea = { service: 'gateway', area: 'other', monthlyQuota: false };

export function routeArea(route: string): RouteArea {
  return Object.prototype.hasOwnProperty.call(ROUTES, route) ? ROUTES[route]! : GATEWAY_OWN;
}
