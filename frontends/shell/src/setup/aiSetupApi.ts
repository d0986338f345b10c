import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiRequest, isApiError } from '@kasa/api-client';
import type {
  AiProviderCreateRequest,
  AiProviderDiscovery,
  AiProviderList,
  AiProviderTestRequest,
  AiProviderTestResult,
  AiProviderView,
  LocalModelStatus,
} from '@kasa/contracts';
import { DOWNLOAD_POLL_MS } from '@kasa/ui/aiProviders';

// The operators' AI provider API as the Connect AI step uses it (services/chat/README.md#ai-providers-in-the-browser).
// Every route is a 404 to anyone who is not an operator.

/** React Query keys of the step; they start with the shell's name (STYLE.md). */
export const aiSetupKeys = {
  providers: ['shell', 'ai-setup', 'providers'] as const,
  discovery: ['shell', 'ai-setup', 'discovery'] as const,
  localModel: ['shell', 'ai-setup', 'local-model'] as const,
};

/** A connection test waits for one short answer (at most 15 s on the server): a little more here. */
const TEST_TIMEOUT_MS = 20_000;

/** No retry for a 4xx (asking again changes nothing); once for anything else. */
const retry = (failures: number, error: unknown) =>
  !(isApiError(error) && error.status >= 400 && error.status < 500) && failures < 1;

export function useProviderList() {
  return useQuery({
    queryKey: aiSetupKeys.providers,
    queryFn: () => apiJson<AiProviderList>('GET', '/api/admin/providers'),
    retry,
  });
}

export function useDiscovery() {
  return useQuery({
    queryKey: aiSetupKeys.discovery,
    queryFn: () => apiJson<AiProviderDiscovery>('GET', '/api/admin/provider-discovery'),
    retry,
  });
}

export function useLocalModel(enabled: boolean) {
  return useQuery({
    queryKey: aiSetupKeys.localModel,
    queryFn: () => apiJson<LocalModelStatus>('GET', '/api/admin/local-model'),
    enabled,
    retry,
    refetchInterval: (query) => (query.state.data?.state === 'downloading' ? DOWNLOAD_POLL_MS : false),
  });
}

/** A connection test of unsaved settings: nothing is stored. */
export function useProviderTest() {
  return useMutation({
    mutationFn: (request: AiProviderTestRequest) =>
      apiJson<AiProviderTestResult>('POST', '/api/admin/provider-tests', request, { timeoutMs: TEST_TIMEOUT_MS }),
    retry: false,
  });
}

/** Saves a provider at the end of the chain; the list is read again. */
export function useCreateProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: AiProviderCreateRequest) => apiJson<AiProviderView>('POST', '/api/admin/providers', request),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: aiSetupKeys.providers }),
  });
}

export function useDownloadLocalModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url?: string) => apiJson<LocalModelStatus>('POST', '/api/admin/local-model', url ? { url } : {}),
    retry: false,
    onSuccess: (status) => queryClient.setQueryData(aiSetupKeys.localModel, status),
  });
}

export function useCancelLocalModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', '/api/admin/local-model/download').then(() => undefined),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: aiSetupKeys.localModel }),
  });
}
