import type { HttpClient } from '../http.js';
import { MessagesResource } from './messages.js';
import { SessionsResource } from './sessions.js';

/** Kasa's chat: sessions with a persona, and their messages (sent whole or streamed). */
export class ChatResource {
  readonly sessions: SessionsResource;
  readonly messages: MessagesResource;

  constructor(http: HttpClient) {
    this.sessions = new SessionsResource(http);
    this.messages = new MessagesResource(http);
  }
}
