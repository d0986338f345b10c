import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiRequest } from '@kasa/api-client';
import type { TeamSsoResponse, TeamSsoSettingsRequest } from '@kasa/contracts';
import { retryUnlessClientError } from '@kasa/api-client';

/** The team's single sign-on settings (its owner's view). */
export const teamSsoKey = ['developer', 'team', 'sso'] as const;

export function useTeamSso(enabled: boolean) {
  return useQuery({
    queryKey: teamSsoKey,
    queryFn: () => apiJson<TeamSsoResponse>('GET', '/api/developer/team/sso'),
    retry: retryUnlessClientError,
    enabled,
  });
}

/** Saves the settings; the answer is the new view (the secret only as "set"). */
export function useSaveTeamSso() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TeamSsoSettingsRequest) =>
      apiJson<TeamSsoResponse>('PUT', '/api/developer/team/sso', request),
    onSuccess: (saved) => queryClient.setQueryData(teamSsoKey, saved),
  });
}

export function useRemoveTeamSso() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', '/api/developer/team/sso').then(() => undefined),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamSsoKey }),
  });
}
