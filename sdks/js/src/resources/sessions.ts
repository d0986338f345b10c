import type { CallOptions, HttpClient } from '../http.js';
import type {
  ConversationShare,
  CreateSessionRequest,
  PageQuery,
  Session,
  SessionPage,
  SessionWithMessages,
  SharedConversation,
} from '../types.js';

const sessionPath = (id: string) => `/api/chat/sessions/${encodeURIComponent(id)}`;

/** Chat sessions (conversations with one persona). Only their owner sees them: anyone else gets a 404. */
export class SessionsResource {
  constructor(private readonly http: HttpClient) {}

  /** POST /api/chat/sessions → the new session; an unknown persona is a 400. */
  create(input: CreateSessionRequest, options?: CallOptions): Promise<Session> {
    return this.http.json<Session>({ method: 'POST', path: '/api/chat/sessions', body: input, creates: true, options });
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
    return this.http.json<Session>({
      method: 'PATCH',
      path: sessionPath(id),
      body: { title },
      idempotent: true,
      options,
    });
  }

  /**
   * POST /api/chat/sessions/:id/share → a read-only link to the conversation as it is now. Sharing again keeps the
   * link and brings it up to date; an empty conversation is a 400.
   */
  share(id: string, options?: CallOptions): Promise<ConversationShare> {
    return this.http.json<ConversationShare>({
      method: 'POST',
      path: `${sessionPath(id)}/share`,
      idempotent: true,
      options,
    });
  }

  /** GET /api/chat/sessions/:id/share → the conversation's link; a 404 when it is not shared. */
  getShare(id: string, options?: CallOptions): Promise<ConversationShare> {
    return this.http.json<ConversationShare>({ method: 'GET', path: `${sessionPath(id)}/share`, options });
  }

  /** DELETE /api/chat/sessions/:id/share: stops sharing; the link answers 404 from then on. */
  async stopSharing(id: string, options?: CallOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `${sessionPath(id)}/share`, options });
  }

  /** GET /api/chat/shared/:token → a conversation someone shared (no account needed); 404 once they stop. */
  readShared(token: string, options?: CallOptions): Promise<SharedConversation> {
    return this.http.json<SharedConversation>({
      method: 'GET',
      path: `/api/chat/shared/${encodeURIComponent(token)}`,
      options,
    });
  }

  /** DELETE /api/chat/sessions/:id: the session and its messages. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: sessionPath(id), options });
  }
}
