import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { retryUnlessClientError } from '@kasa/api-client';
import type {
  AiProviderCreateRequest,
  AiProviderList,
  AiProviderTestRequest,
  AiProviderUpdateRequest,
  LocalModelStatus,
  SubscriptionTier,
} from '@kasa/contracts';
import { DOWNLOAD_POLL_MS } from '@kasa/ui/aiProviders';
import {
  addOperator,
  adminKeys,
  cancelLocalModel,
  changePlan,
  createProvider,
  deleteProvider,
  downloadLocalModel,
  fetchDiscovery,
  fetchHealth,
  fetchUsage,
  fetchLocalModel,
  fetchProviders,
  reorderProviders,
  testProvider,
  updateProvider,
  fetchAudit,
  fetchInquiries,
  fetchOperators,
  fetchPeople,
  fetchPerson,
  grantEnterprise,
  removeOperator,
  restorePerson,
  suspendPerson,
  type AuditFilters,
  type EnterpriseTerms,
} from './adminApi';

/** A search of people, a page at a time (`fetchNextPage` asks for the next). */
export function usePeople(q: string) {
  return useInfiniteQuery({
    queryKey: adminKeys.people(q),
    queryFn: ({ pageParam }) => fetchPeople(q, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    retry: retryUnlessClientError,
  });
}

/** A person's page; `enabled: false` asks nothing (a list row whose id is not an account's). */
export function usePerson(id: string, enabled = true) {
  return useQuery({
    queryKey: adminKeys.person(id),
    queryFn: () => fetchPerson(id),
    retry: retryUnlessClientError,
    enabled,
  });
}

/** After a change to a person: their page, and every search that may list them, are read again. */
function usePersonChanged(id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.person(id) }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'people'] }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] }),
    ]);
}

// Actions are never retried: each is an operator's recorded decision, taken again only by pressing again.

export function useSuspend(id: string) {
  const changed = usePersonChanged(id);
  return useMutation({ mutationFn: (reason: string) => suspendPerson(id, reason), retry: false, onSuccess: changed });
}

export function useRestore(id: string) {
  const changed = usePersonChanged(id);
  return useMutation({ mutationFn: (reason: string) => restorePerson(id, reason), retry: false, onSuccess: changed });
}

export function useChangePlan(id: string) {
  const changed = usePersonChanged(id);
  return useMutation({
    mutationFn: ({ tier, reason }: { tier: SubscriptionTier; reason: string }) => changePlan(id, tier, reason),
    retry: false,
    onSuccess: changed,
  });
}

export function useOperators() {
  return useQuery({ queryKey: adminKeys.operators, queryFn: fetchOperators, retry: retryUnlessClientError });
}

export function useAddOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addOperator,
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.operators }),
  });
}

export function useRemoveOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeOperator,
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.operators }),
  });
}

export function useInquiries() {
  return useQuery({ queryKey: adminKeys.inquiries, queryFn: fetchInquiries, retry: retryUnlessClientError });
}

export function useGrantEnterprise() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ inquiryId, terms }: { inquiryId: string; terms: EnterpriseTerms }) =>
      grantEnterprise(inquiryId, terms),
    retry: false,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.inquiries }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'people'] }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'person'] }),
      ]),
  });
}

/** The audit log under `filters`, newest first, a page at a time. */
export function useAudit(filters: AuditFilters, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: adminKeys.audit(filters),
    queryFn: ({ pageParam }) => fetchAudit(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    retry: retryUnlessClientError,
  });
}

/** The AI provider chain in order, the kinds the form offers, and whether keys can be saved. */
export function useProviders() {
  return useQuery({ queryKey: adminKeys.providers, queryFn: fetchProviders, retry: retryUnlessClientError });
}

/** After a change to the chain, the list is read again (the circuit states and attempts with it). */
function useProvidersChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.providers }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] }),
    ]);
}

export function useCreateProvider() {
  const changed = useProvidersChanged();
  return useMutation({
    mutationFn: (request: AiProviderCreateRequest) => createProvider(request),
    retry: false,
    onSuccess: changed,
  });
}

export function useUpdateProvider() {
  const changed = useProvidersChanged();
  return useMutation({
    mutationFn: ({ name, request }: { name: string; request: AiProviderUpdateRequest }) =>
      updateProvider(name, request),
    retry: false,
    onSuccess: changed,
  });
}

export function useDeleteProvider() {
  const changed = useProvidersChanged();
  return useMutation({ mutationFn: deleteProvider, retry: false, onSuccess: changed });
}

/** Sends the whole order; the answer is the chain as saved, shown at once. */
export function useReorderProviders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderProviders,
    retry: false,
    onSuccess: (list: AiProviderList) => {
      queryClient.setQueryData(adminKeys.providers, list);
      return queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] });
    },
  });
}

/** A connection test: nothing is saved, so nothing is read again. */
export function useTestProvider() {
  return useMutation({ mutationFn: (request: AiProviderTestRequest) => testProvider(request), retry: false });
}

/** What this machine offers: a local Ollama and its models. */
export function useDiscovery() {
  return useQuery({ queryKey: adminKeys.discovery, queryFn: fetchDiscovery, retry: retryUnlessClientError });
}

/** The local model file's state, asked again every second while it downloads. */
export function useLocalModel() {
  return useQuery({
    queryKey: adminKeys.localModel,
    queryFn: fetchLocalModel,
    retry: retryUnlessClientError,
    refetchInterval: (query) => (query.state.data?.state === 'downloading' ? DOWNLOAD_POLL_MS : false),
  });
}

export function useDownloadLocalModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url?: string) => downloadLocalModel(url),
    retry: false,
    onSuccess: (status: LocalModelStatus) => queryClient.setQueryData(adminKeys.localModel, status),
  });
}

export function useCancelLocalModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelLocalModel,
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.localModel }),
  });
}

/** How often the platform's health is asked again while its section is open. */
export const HEALTH_POLL_MS = 30_000;

/** The services' states and figures, asked again every 30 s while shown. */
export function useHealth() {
  return useQuery({
    queryKey: adminKeys.health,
    queryFn: fetchHealth,
    retry: retryUnlessClientError,
    refetchInterval: HEALTH_POLL_MS,
  });
}

/** A UTC month's totals and its people and API keys with the most calls. */
export function useUsage(month: string) {
  return useQuery({
    queryKey: adminKeys.usage(month),
    queryFn: () => fetchUsage(month),
    retry: retryUnlessClientError,
  });
}
