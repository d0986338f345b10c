import type { CallOptions, HttpClient } from '../http.js';
import type { AuthResponse, LoginRequest, MeResponse, MeUser, RegisterRequest } from '../types.js';

/** Accounts: sign up, sign in, who am I, sign out. A successful sign-in makes the client use the new token. */
export class AuthResource {
  constructor(
    private readonly http: HttpClient,
    private readonly useToken: (token: string | undefined) => void,
  ) {}

  /** POST /api/auth/register → `{success, token, user, message}`; the client then signs its calls with `token`. */
  async register(input: RegisterRequest, options?: CallOptions): Promise<AuthResponse> {
    const response = await this.http.json<AuthResponse>({
      method: 'POST',
      path: '/api/auth/register',
      body: input,
      creates: true,
      options,
    });
    this.useToken(response.token);
    return response;
  }

  /** POST /api/auth/login → `{success, token, user, message}`; the client then signs its calls with `token`. */
  async login(input: LoginRequest, options?: CallOptions): Promise<AuthResponse> {
    const response = await this.http.json<AuthResponse>({
      method: 'POST',
      path: '/api/auth/login',
      body: input,
      idempotent: true,
      options,
    });
    this.useToken(response.token);
    return response;
  }

  /**
   * GET /api/auth/me → the signed-in user, with whether they are an operator (needs an access token: API keys are
   * refused here).
   */
  async me(options?: CallOptions): Promise<MeUser> {
    const response = await this.http.json<MeResponse>({ method: 'GET', path: '/api/auth/me', options });
    return response.user;
  }

  /** POST /api/auth/logout: revokes the token on the server; the client forgets it whatever the answer. */
  async logout(options?: CallOptions): Promise<void> {
    try {
      await this.http.json<unknown>({ method: 'POST', path: '/api/auth/logout', idempotent: true, options });
    } finally {
      this.useToken(undefined);
    }
  }
}
