import type { CallOptions, HttpClient } from '../http';
import type { CreateSessionRequest, PageQuery, Session, SessionPage, SessionWithMessages } from '../types';

const sessionPath = (id: string) => `/api/chat/sessions/${encodeURIComponent(id)}`;

/** Chat sessions (conversations with one persona). Only their owner sees them: anyone else gets a 404. */
export class SessionsResource {
  constructor(private readonly http: HttpClient) {}

  /** POST /api/chat/sessions → the new session; an unknown persona is a 400. */
  create(input: CreateSessionRequest, options?: CallOptions): Promise<Session> {
    return this.http.json<Session>({ method: 'POST', path: '/api/chat/sessions', body: input, options });
  }

  /** GET /api/chat/sessions → one page of my sessions, newest first. */
  list(query: PageQuery = {}, options?: CallOptions): Promise<SessionPage> {
    return this.http.json<SessionPage>({ method: 'GET', path: '/api/chat/sessions', query: { ...query }, options });
  }

  /** GET /api/chat/sessions/:id → the session and its newest page of messages. */
  get(id: string, query: PageQuery = {}, options?: CallOptions): Promise<SessionWithMessages> {
    return this.http.json<SessionWithMessages>({ method: 'GET', path: sessionPath(id), query: { ...query }, options });
  }

  /** PATCH /api/chat/sessions/:id → the renamed session. */
  rename(id: string, title: string, options?: CallOptions): Promise<Session> {
    return this.http.json<Session>({ method: 'PATCH', path: sessionPath(id), body: { title }, options });
  }

  /** DELETE /api/chat/sessions/:id: the session and its messages. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: sessionPath(id), options });
  }
}
