import { apiJson, apiRequest, isApiError } from '@kasa/api-client';
import type {
  AnalyticsResponse,
  AnalyticsSessionsResponse,
  ApiKey,
  ApiKeyList,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  CreateTeamRequest,
  InviteTeamMemberRequest,
  LanguageList,
  MyTeamInvitationsResponse,
  Persona,
  ServicesStatusResponse,
  TeamInvitation,
  TeamResponse,
  UpdateTeamMemberRequest,
  UsageResponse,
} from '@kasa/contracts';
import type { OpenApiDocument } from '../openapi/operations';

/** React Query keys of the developer portal; all start with 'developer' (STYLE.md). */
export const developerKeys = {
  all: ['developer'] as const,
  personas: ['developer', 'personas'] as const,
  languages: ['developer', 'languages'] as const,
  servicesStatus: ['developer', 'services-status'] as const,
  analytics: ['developer', 'analytics'] as const,
  usage: (keyId: string | null) => ['developer', 'usage', keyId ?? 'all'] as const,
  sessions: ['developer', 'sessions'] as const,
  apiKeys: ['developer', 'api-keys'] as const,
  team: ['developer', 'team'] as const,
  myInvitations: ['developer', 'my-invitations'] as const,
  openApi: ['developer', 'openapi'] as const,
};

/** Where the OpenAPI document lives; the Docs tab and the API tester read it, the SDK cards link to it. */
export const OPENAPI_URL = '/api/openapi.json';

export const fetchPersonas = () => apiJson<Persona[]>('GET', '/api/personas');
export const fetchLanguages = () => apiJson<LanguageList>('GET', '/api/languages');
export const fetchServicesStatus = () => apiJson<ServicesStatusResponse>('GET', '/api/developer/services/status');
/**
 * How long the Analytics tab waits for each of its reads before it gives up and says the service is slow: a slow back
 * end then costs the person 15 seconds, not the gateway's whole timeout (twice, with the retry).
 */
export const ANALYTICS_TIME_LIMIT_MS = 15_000;
const withinLimit = { timeoutMs: ANALYTICS_TIME_LIMIT_MS };

export const fetchAnalytics = () =>
  apiJson<AnalyticsResponse>('GET', '/api/developer/analytics', undefined, withinLimit);
export const fetchSessions = () =>
  apiJson<AnalyticsSessionsResponse>('GET', '/api/analytics/sessions', undefined, withinLimit);
export const fetchOpenApi = () => apiJson<OpenApiDocument>('GET', OPENAPI_URL);

/** The caller's calls over the last `days` days, all of them or only those made with one of their keys. */
export function fetchUsage(keyId: string | null, days = 30) {
  const query = new URLSearchParams({ days: String(days) });
  if (keyId) query.set('keyId', keyId);
  return apiJson<UsageResponse>('GET', `/api/analytics/usage?${query.toString()}`, undefined, withinLimit);
}

export const fetchApiKeys = () => apiJson<ApiKeyList>('GET', '/api/developer/keys');
export const createApiKey = (request: CreateApiKeyRequest) =>
  apiJson<CreateApiKeyResponse>('POST', '/api/developer/keys', request);
export const revokeApiKey = (id: string) =>
  apiRequest('DELETE', `/api/developer/keys/${encodeURIComponent(id)}`).then(() => undefined);

const segment = (id: string) => encodeURIComponent(id);
const noContent = (response: Promise<Response>) => response.then(() => undefined);

/** The caller's team, or null when they are in none (the API's 404). */
export async function fetchTeam(): Promise<TeamResponse | null> {
  try {
    return await apiJson<TeamResponse>('GET', '/api/developer/team');
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}
export const createTeam = (request: CreateTeamRequest) => apiJson<TeamResponse>('POST', '/api/developer/team', request);
export const deleteTeam = () => noContent(apiRequest('DELETE', '/api/developer/team'));
export const inviteTeamMember = (request: InviteTeamMemberRequest) =>
  apiJson<TeamInvitation>('POST', '/api/developer/team/invitations', request);
export const revokeTeamInvitation = (id: string) =>
  noContent(apiRequest('DELETE', `/api/developer/team/invitations/${segment(id)}`));
export const changeTeamRole = (userId: string, request: UpdateTeamMemberRequest) =>
  apiJson<TeamResponse>('PATCH', `/api/developer/team/members/${segment(userId)}`, request);
/** Removes a member, or the caller themselves (leaving). */
export const removeTeamMember = (userId: string) =>
  noContent(apiRequest('DELETE', `/api/developer/team/members/${segment(userId)}`));

export const fetchMyInvitations = () => apiJson<MyTeamInvitationsResponse>('GET', '/api/developer/invitations');
export const acceptInvitation = (id: string) =>
  apiJson<TeamResponse>('POST', `/api/developer/invitations/${segment(id)}/accept`);
export const declineInvitation = (id: string) =>
  noContent(apiRequest('DELETE', `/api/developer/invitations/${segment(id)}`));

export type { ApiKey };
