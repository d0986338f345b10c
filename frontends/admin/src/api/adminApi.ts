import { apiJson, apiRequest } from '@kasa/api-client';
import type {
  AdminHealthResponse,
  AdminUsageResponse,
  AiProviderCreateRequest,
  AiProviderDiscovery,
  AiProviderList,
  AiProviderTestRequest,
  AiProviderTestResult,
  AiProviderUpdateRequest,
  AiProviderView,
  AuditEntry,
  LocalModelStatus,
  PersonDetail,
  PersonSummary,
  PlanCurrency,
  Subscription,
  SubscriptionTier,
  Suspension,
} from '@kasa/contracts';

// The operators' API (services/auth/README.md#operators). Every /api/admin route answers 404 to anyone who is not an
// operator, so a 404 on a list means the role is gone, and on one item that the item is.

/** React Query keys of the operator console; all start with 'admin' (STYLE.md). */
export const adminKeys = {
  all: ['admin'] as const,
  people: (q: string) => ['admin', 'people', q] as const,
  person: (id: string) => ['admin', 'person', id] as const,
  operators: ['admin', 'operators'] as const,
  inquiries: ['admin', 'inquiries'] as const,
  audit: (filters: AuditFilters) => ['admin', 'audit', filters] as const,
  providers: ['admin', 'providers'] as const,
  discovery: ['admin', 'provider-discovery'] as const,
  localModel: ['admin', 'local-model'] as const,
  health: ['admin', 'health'] as const,
  usage: (month: string) => ['admin', 'usage', month] as const,
};

/** Why a person is an operator: chosen by an operator (or the setup link, or the command), or by configuration. */
export type OperatorSource = 'granted' | 'configured';

/** GET /api/admin/operators: one operator. */
export interface OperatorView {
  id: string;
  username: string;
  email: string;
  source: OperatorSource;
}

export type InquiryStatus = 'open' | 'contacted' | 'closed';

/** GET /api/admin/inquiries: one Enterprise inquiry, as the person's checkout of Enterprise recorded it. */
export interface InquiryView {
  id: string;
  userId: string;
  username: string;
  email: string;
  currentTier: string;
  company: string | null;
  seats: number | null;
  phone: string | null;
  message: string | null;
  status: InquiryStatus;
  requestCount: number;
  lastRequestedAt: string;
  createdAt: string;
}

/** POST /api/admin/inquiries/:id/enterprise: the contract's terms. */
export interface EnterpriseTerms {
  seats: number;
  /** ISO 8601: the contract's last moment. */
  endsAt: string;
  amount?: number;
  currency?: PlanCurrency;
}

export interface PeoplePage {
  people: PersonSummary[];
  nextCursor: string | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: string | null;
  from: string;
  to: string;
}

/** The audit log's filters as the API takes them (each optional; `from`/`to` ISO 8601). */
export interface AuditFilters {
  actor?: string;
  target?: string;
  action?: string;
  from?: string;
  to?: string;
}

/** People per page of a search. */
export const PEOPLE_PAGE_SIZE = 25;
/** Audit entries per page. */
export const AUDIT_PAGE_SIZE = 50;

const segment = (id: string) => encodeURIComponent(id);

/** A query string of the given values, leaving out the empty ones; `?…` or nothing. */
export function queryString(values: Record<string, string | number | undefined | null>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

export const fetchPeople = (q: string, cursor: string | null) =>
  apiJson<PeoplePage>('GET', `/api/admin/people${queryString({ q, cursor, limit: PEOPLE_PAGE_SIZE })}`);
export const fetchPerson = (id: string) =>
  apiJson<{ person: PersonDetail }>('GET', `/api/admin/people/${segment(id)}`).then((answer) => answer.person);
export const suspendPerson = (id: string, reason: string) =>
  apiJson<{ suspension: Suspension }>('POST', `/api/admin/people/${segment(id)}/suspend`, { reason });
export const restorePerson = (id: string, reason: string) =>
  apiJson<{ suspension: Suspension }>(
    'POST',
    `/api/admin/people/${segment(id)}/restore`,
    reason.trim() ? { reason } : {},
  );
export const changePlan = (id: string, tier: SubscriptionTier, reason: string) =>
  apiJson<{ from: SubscriptionTier; to: SubscriptionTier; subscription: Subscription | null }>(
    'POST',
    `/api/admin/people/${segment(id)}/plan`,
    { tier, reason },
  );

export const fetchOperators = () =>
  apiJson<{ operators: OperatorView[] }>('GET', '/api/admin/operators').then((answer) => answer.operators);
export const addOperator = (email: string) => apiJson<OperatorView>('POST', '/api/admin/operators', { email });
export const removeOperator = (userId: string) =>
  apiRequest('DELETE', `/api/admin/operators/${segment(userId)}`).then(() => undefined);

export const fetchInquiries = () =>
  apiJson<{ inquiries: InquiryView[] }>('GET', '/api/admin/inquiries').then((answer) => answer.inquiries);
export const grantEnterprise = (inquiryId: string, terms: EnterpriseTerms) =>
  apiJson<{ userId: string; email: string; subscription: Subscription }>(
    'POST',
    `/api/admin/inquiries/${segment(inquiryId)}/enterprise`,
    terms,
  );

/** The audit log's address for these filters: the JSON page, or (`csv`) the export of up to 10,000 rows. */
export function auditUrl(filters: AuditFilters, options: { csv?: boolean; cursor?: string | null } = {}): string {
  const path = options.csv ? '/api/admin/audit.csv' : '/api/admin/audit';
  return `${path}${queryString({
    ...filters,
    ...(options.csv ? {} : { cursor: options.cursor, limit: AUDIT_PAGE_SIZE }),
  })}`;
}

export const fetchAudit = (filters: AuditFilters, cursor: string | null) =>
  apiJson<AuditPage>('GET', auditUrl(filters, { cursor }));

/**
 * Saves the audit log's CSV export. It is read with the operator's token (a plain link would carry none) and
 * handed to the browser as a file.
 */
export async function downloadAuditCsv(filters: AuditFilters, fileName: string): Promise<void> {
  const blob = await (
    await apiRequest('GET', auditUrl(filters, { csv: true }), undefined, { accept: 'text/csv' })
  ).blob();
  const href = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = href;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has handed the file to the browser.
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  }
}

// The AI providers (services/chat/README.md#ai-providers-in-the-browser): the chain, its order, connection tests,
// what this machine offers (a local Ollama) and the local model file.

/** A connection test waits for one short answer of the model, at most 15 s on the server: a little more here. */
export const PROVIDER_TEST_TIMEOUT_MS = 20_000;

export const fetchProviders = () => apiJson<AiProviderList>('GET', '/api/admin/providers');
export const createProvider = (request: AiProviderCreateRequest) =>
  apiJson<AiProviderView>('POST', '/api/admin/providers', request);
export const updateProvider = (name: string, request: AiProviderUpdateRequest) =>
  apiJson<AiProviderView>('PATCH', `/api/admin/providers/${segment(name)}`, request);
export const deleteProvider = (name: string) =>
  apiRequest('DELETE', `/api/admin/providers/${segment(name)}`).then(() => undefined);
export const reorderProviders = (names: string[]) =>
  apiJson<AiProviderList>('PUT', '/api/admin/provider-order', { names });
export const testProvider = (request: AiProviderTestRequest) =>
  apiJson<AiProviderTestResult>('POST', '/api/admin/provider-tests', request, { timeoutMs: PROVIDER_TEST_TIMEOUT_MS });
export const fetchDiscovery = () => apiJson<AiProviderDiscovery>('GET', '/api/admin/provider-discovery');

export const fetchLocalModel = () => apiJson<LocalModelStatus>('GET', '/api/admin/local-model');
/** Starts (or resumes) fetching the local model's file, from `url` when given. */
export const downloadLocalModel = (url?: string) =>
  apiJson<LocalModelStatus>('POST', '/api/admin/local-model', url ? { url } : {});
export const cancelLocalModel = () => apiRequest('DELETE', '/api/admin/local-model/download').then(() => undefined);

// The platform's health and usage (the status service, services/status/README.md#operators-health-and-usage).

export const fetchHealth = () => apiJson<AdminHealthResponse>('GET', '/api/admin/health');
/** A UTC month's totals and top lists (`YYYY-MM`). */
export const fetchUsage = (month: string) =>
  apiJson<AdminUsageResponse>('GET', `/api/admin/usage${queryString({ month })}`);
