import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiRequest } from '@kasa/api-client';
import type {
  CreateWebhookEndpointRequest,
  CreateWebhookEndpointResponse,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryList,
  WebhookDeliveryResponse,
  WebhookEndpointList,
  WebhookEndpointResponse,
  WebhookSecretResponse,
} from '@kasa/contracts';
import { retryUnlessClientError } from '@kasa/api-client';

/** The Webhooks tab's query keys (they start with 'developer', as every key of the portal). */
export const webhookKeys = {
  all: ['developer', 'webhooks'] as const,
  endpoints: ['developer', 'webhooks', 'endpoints'] as const,
  deliveries: (endpointId: string) => ['developer', 'webhooks', 'deliveries', endpointId] as const,
};

/** How many deliveries one page of the log holds (the API allows 1 to 100). */
export const DELIVERIES_PAGE_SIZE = 25;

/** While a delivery of the open log is waiting for an attempt, the log is read again this often. */
export const PENDING_REFRESH_MS = 3_000;

const BASE = '/api/developer/webhooks';
const segment = (id: string) => encodeURIComponent(id);

export const fetchWebhookEndpoints = () => apiJson<WebhookEndpointList>('GET', BASE);
export const createWebhookEndpoint = (request: CreateWebhookEndpointRequest) =>
  apiJson<CreateWebhookEndpointResponse>('POST', BASE, request);
export const updateWebhookEndpoint = (id: string, request: UpdateWebhookEndpointRequest) =>
  apiJson<WebhookEndpointResponse>('PATCH', `${BASE}/${segment(id)}`, request);
export const deleteWebhookEndpoint = (id: string) =>
  apiRequest('DELETE', `${BASE}/${segment(id)}`).then(() => undefined);
export const rotateWebhookSecret = (id: string) =>
  apiJson<WebhookSecretResponse>('POST', `${BASE}/${segment(id)}/secret`);
export const sendWebhookTest = (id: string) => apiJson<WebhookDeliveryResponse>('POST', `${BASE}/${segment(id)}/test`);
export const replayWebhookDelivery = (id: string, deliveryId: string) =>
  apiJson<WebhookDeliveryResponse>('POST', `${BASE}/${segment(id)}/deliveries/${segment(deliveryId)}/replay`);

/** One page of an endpoint's deliveries, newest first; `before` is the previous page's `nextCursor`. */
export function fetchWebhookDeliveries(id: string, before: string | null, limit = DELIVERIES_PAGE_SIZE) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before) query.set('before', before);
  return apiJson<WebhookDeliveryList>('GET', `${BASE}/${segment(id)}/deliveries?${query.toString()}`);
}

export function useWebhookEndpoints() {
  return useQuery({ queryKey: webhookKeys.endpoints, queryFn: fetchWebhookEndpoints, retry: retryUnlessClientError });
}

/** Adding an endpoint is not idempotent: never retried (a retry after a lost answer would add a second one). */
export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateWebhookEndpointRequest) => createWebhookEndpoint(request),
    retry: 0,
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }),
  });
}

/** Turns an endpoint on or off: the switch moves at once and moves back if the API refuses. */
export function useSetWebhookEnabled() {
  const queryClient = useQueryClient();
  const setEnabled = (id: string, enabled: boolean) =>
    queryClient.setQueryData<WebhookEndpointList>(webhookKeys.endpoints, (list) =>
      list ? { ...list, endpoints: list.endpoints.map((e) => (e.id === id ? { ...e, enabled } : e)) } : list,
    );
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => updateWebhookEndpoint(id, { enabled }),
    onMutate: async ({ id, enabled }) => {
      await queryClient.cancelQueries({ queryKey: webhookKeys.endpoints });
      setEnabled(id, enabled);
    },
    onError: (_, { id, enabled }) => setEnabled(id, !enabled),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }),
  });
}

export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteWebhookEndpoint(id),
    onSuccess: (_, id) => queryClient.removeQueries({ queryKey: webhookKeys.deliveries(id) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }),
  });
}

/** A new secret replaces the old one at once: never retried (a second rotation would void the first answer). */
export function useRotateWebhookSecret() {
  return useMutation({ mutationFn: (id: string) => rotateWebhookSecret(id), retry: 0 });
}

/** Each call sends one more event: never retried, and the endpoint's log is read again afterwards. */
export function useSendWebhookTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sendWebhookTest(id),
    retry: 0,
    onSettled: (_, __, id) => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}

export function useReplayWebhookDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
      replayWebhookDelivery(endpointId, deliveryId),
    retry: 0,
    onSettled: (_, __, { endpointId }) =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(endpointId) }),
  });
}

/**
 * An endpoint's delivery log, a page at a time ("Load more" asks for the next one). While a loaded delivery waits for
 * an attempt, the log is read again every few seconds, so that it turns delivered or failed without a Refresh.
 */
export function useWebhookDeliveries(endpointId: string) {
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveries(endpointId),
    queryFn: ({ pageParam }) => fetchWebhookDeliveries(endpointId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    retry: retryUnlessClientError,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.deliveries.some((d) => d.status === 'pending'))
        ? PENDING_REFRESH_MS
        : false,
  });
}
