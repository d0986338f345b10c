import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { retryUnlessClientError } from '@kasa/api-client';
import type {
  AssignableTeamRole,
  CreateApiKeyRequest,
  CreateTeamRequest,
  InviteTeamMemberRequest,
} from '@kasa/contracts';
import {
  acceptInvitation,
  changeTeamRole,
  createApiKey,
  createTeam,
  declineInvitation,
  deleteTeam,
  developerKeys,
  fetchAnalytics,
  fetchApiKeys,
  fetchLanguages,
  fetchMyInvitations,
  fetchOpenApi,
  fetchPersonas,
  fetchServicesStatus,
  fetchSessions,
  fetchTeam,
  fetchUsage,
  inviteTeamMember,
  removeTeamMember,
  revokeApiKey,
  revokeTeamInvitation,
} from './developerApi';

/** The status panel and the header badges refresh this often (spec sections 4 and 9: every 30 s). */
export const STATUS_REFRESH_MS = 30_000;

export function usePersonas() {
  return useQuery({ queryKey: developerKeys.personas, queryFn: fetchPersonas, retry: retryUnlessClientError });
}

export function useLanguages() {
  return useQuery({
    queryKey: developerKeys.languages,
    queryFn: fetchLanguages,
    staleTime: 10 * 60_000,
    retry: retryUnlessClientError,
  });
}

export function useServicesStatus() {
  return useQuery({
    queryKey: developerKeys.servicesStatus,
    queryFn: fetchServicesStatus,
    refetchInterval: STATUS_REFRESH_MS,
    staleTime: STATUS_REFRESH_MS,
    retry: retryUnlessClientError,
  });
}

export function useAnalytics() {
  return useQuery({ queryKey: developerKeys.analytics, queryFn: fetchAnalytics, retry: retryUnlessClientError });
}

export function useUsage(keyId: string | null) {
  return useQuery({
    queryKey: developerKeys.usage(keyId),
    queryFn: () => fetchUsage(keyId),
    retry: retryUnlessClientError,
  });
}

export function useAnalyticsSessions() {
  return useQuery({ queryKey: developerKeys.sessions, queryFn: fetchSessions, retry: retryUnlessClientError });
}

export function useOpenApi() {
  return useQuery({
    queryKey: developerKeys.openApi,
    queryFn: fetchOpenApi,
    staleTime: 30 * 60_000,
    retry: retryUnlessClientError,
  });
}

export function useApiKeys() {
  return useQuery({ queryKey: developerKeys.apiKeys, queryFn: fetchApiKeys, retry: retryUnlessClientError });
}

/** Creating a key is not idempotent: never retried (a retry after a lost answer would mint a second key). */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateApiKeyRequest) => createApiKey(request),
    retry: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: developerKeys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeApiKey(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: developerKeys.apiKeys }),
  });
}

/** The caller's team (null when in none), shared by the Team tab and the Keys tab's team-key choice. */
export function useMyTeam() {
  return useQuery({ queryKey: developerKeys.team, queryFn: fetchTeam, retry: retryUnlessClientError });
}

/** Open invitations addressed to the caller (shown while they are in no team). */
export function useMyInvitations(enabled = true) {
  return useQuery({
    queryKey: developerKeys.myInvitations,
    queryFn: fetchMyInvitations,
    retry: retryUnlessClientError,
    enabled,
  });
}

/**
 * A team change. Membership decides which keys a person sees (a team's keys come and go with it), so the team,
 * the caller's invitations and the key list are all read again afterwards. `once`: the call is not safe to repeat
 * (a repeat after a lost answer would fail with "already in a team" or "not found" although the first one worked).
 */
function useTeamMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>, once = false) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    retry: once ? 0 : retryUnlessClientError,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: developerKeys.team }),
        queryClient.invalidateQueries({ queryKey: developerKeys.myInvitations }),
        queryClient.invalidateQueries({ queryKey: developerKeys.apiKeys }),
      ]),
  });
}

export const useCreateTeam = () => useTeamMutation((request: CreateTeamRequest) => createTeam(request), true);
export const useDeleteTeam = () => useTeamMutation(() => deleteTeam(), true);
export const useInviteTeamMember = () =>
  useTeamMutation((request: InviteTeamMemberRequest) => inviteTeamMember(request));
export const useRevokeTeamInvitation = () => useTeamMutation((id: string) => revokeTeamInvitation(id), true);
export const useChangeTeamRole = () =>
  useTeamMutation(({ userId, role }: { userId: string; role: AssignableTeamRole }) => changeTeamRole(userId, { role }));
export const useRemoveTeamMember = () => useTeamMutation((userId: string) => removeTeamMember(userId), true);
export const useAcceptInvitation = () => useTeamMutation((id: string) => acceptInvitation(id), true);
export const useDeclineInvitation = () => useTeamMutation((id: string) => declineInvitation(id), true);
