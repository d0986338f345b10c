export { TOKEN_STORAGE_KEY, getToken, setToken, clearToken, subscribeToken } from './token';
export {
  ApiError,
  isApiError,
  apiRequest,
  apiJson,
  getQueryFn,
  queryKeyToUrl,
  type HttpMethod,
  type ApiRequestOptions,
  type UnauthorizedBehavior,
} from './http';
export {
  authMeQueryKey,
  AUTH_ME_STALE_TIME_MS,
  LOGOUT_URL,
  AuthRejectedError,
  login,
  register,
  fetchMe,
  completeSignIn,
  signOutLocally,
  logout,
  useAuthToken,
  useAuth,
  tierLabel,
  type AuthState,
} from './auth';
export { queryClientDefaults, createQueryClient, retryUnlessClientError } from './queryClient';
export {
  describeFailure,
  failureKind,
  isTimeout,
  NETWORK_FAILURE_MESSAGE,
  TIMEOUT_FAILURE_MESSAGE,
  type FailureKind,
} from './failures';
