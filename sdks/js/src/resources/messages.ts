import { linkedController } from '../abort.js';
import { EventStream, type Decoded } from '../EventStream.js';
import { KasaError, STREAM_ERROR } from '../KasaError.js';
import type { CallOptions, HttpClient, RequestSpec } from '../http.js';
import type { ServerSentEvent } from '../sse.js';
import type {
  AssistantReply,
  EditMessageInput,
  MessagePage,
  PageQuery,
  RegenerateInput,
  ReplyEvent,
  SendMessageInput,
  SessionWithMessages,
  StoredMessage,
} from '../types.js';

const messagesPath = (sessionId: string) => `/api/chat/sessions/${encodeURIComponent(sessionId)}/messages`;
const messagePath = (sessionId: string, messageId: string, action: string) =>
  `${messagesPath(sessionId)}/${encodeURIComponent(messageId)}/${action}`;

/**
 * A streamed reply: `for await (const event of stream)` gives `meta`, then each `token` in order, then `done` with
 * the stored reply. `abort()`, the call's AbortSignal or leaving the loop early hangs up; for a reply sent with
 * `messages.stream` (not `resumable`), the server then stops it and stores it with `status: 'stopped'`. A `resumable`
 * reply, and any reply followed with `messages.resume`, goes on being written: `messages.stop` stops it.
 */
export class ReplyStream extends EventStream<ReplyEvent> {
  /** Reads the rest of the stream and resolves with the stored reply. */
  async finalMessage(): Promise<AssistantReply> {
    for await (const event of this) if (event.type === 'done') return event.message;
    throw new KasaError({ status: 0, code: STREAM_ERROR, message: 'The reply ended without a final message.' });
  }
}

function decodeReplyEvent(requestId: () => string | undefined) {
  return (event: ServerSentEvent): Decoded<ReplyEvent> => {
    switch (event.event) {
      case 'meta':
        return { item: { type: 'meta', ...JSON.parse(event.data) } };
      case 'token':
        return { item: { type: 'token', text: (JSON.parse(event.data) as { text: string }).text } };
      case 'done':
        return { end: true, item: { type: 'done', message: JSON.parse(event.data) as AssistantReply } };
      case 'error':
        // The same failure the non-streamed call answers with a 503: no provider could finish the reply.
        throw new KasaError({
          status: 503,
          code: 'upstream_unavailable',
          message: (JSON.parse(event.data) as { message: string }).message,
          requestId: requestId(),
        });
      default:
        return { skip: true };
    }
  };
}

/**
 * Messages of a session: list, send (the reply as one answer), stream (the reply token by token), resume or stop a
 * reply being written, and versions: edit a message, regenerate an answer, show another version.
 */
export class MessagesResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/chat/sessions/:id → one page of the session's messages (the newest page first). */
  async list(sessionId: string, query: PageQuery = {}, options?: CallOptions): Promise<MessagePage> {
    const session = await this.http.json<{ messages: StoredMessage[]; nextCursor: string | null }>({
      method: 'GET',
      path: `/api/chat/sessions/${encodeURIComponent(sessionId)}`,
      query: { ...query },
      options,
    });
    return { messages: session.messages, nextCursor: session.nextCursor };
  }

  /** POST /api/chat/sessions/:id/messages → the stored reply, once it is complete (`userMessageId` included). */
  send(sessionId: string, input: SendMessageInput, options?: CallOptions): Promise<AssistantReply> {
    return this.http.json<AssistantReply>({
      method: 'POST',
      path: messagesPath(sessionId),
      body: { ...input, role: 'user' },
      creates: true,
      options,
    });
  }

  /**
   * POST /api/chat/sessions/:id/messages with `Accept: text/event-stream`. Resolves once the reply has started
   * (plan, ownership and validation errors reject here, as KasaErrors); then read the ReplyStream.
   */
  stream(sessionId: string, input: SendMessageInput, options: CallOptions = {}): Promise<ReplyStream> {
    return this.open(
      {
        method: 'POST',
        path: messagesPath(sessionId),
        body: { ...input, role: 'user' },
        accept: 'text/event-stream',
        creates: true,
      },
      options,
    );
  }

  /**
   * GET /api/chat/sessions/:id/messages/:messageId/stream: follows a reply again, after a dropped connection or a
   * reloaded page, or from another process. The ReplyStream gives `meta`, the text written so far as one `token`, then
   * the rest as it is written, then `done` with the stored reply (at once for a reply that has already ended). An
   * unknown message or someone else's rejects here with a 404. Leaving this stream stops following only: to stop a
   * `resumable` reply itself, call `stop`.
   */
  resume(sessionId: string, messageId: string, options: CallOptions = {}): Promise<ReplyStream> {
    return this.open(
      {
        method: 'GET',
        path: `${messagesPath(sessionId)}/${encodeURIComponent(messageId)}/stream`,
        accept: 'text/event-stream',
      },
      options,
    );
  }

  /**
   * POST /api/chat/sessions/:id/messages/:messageId/edit → the reply to the new text of one of my messages, once it is
   * complete. The new text is a new version of that message, in its place: the conversation's branch now goes through
   * it (the old version and what followed it are kept; `selectVersion` shows them again). Editing an answer is a 400.
   */
  edit(sessionId: string, messageId: string, input: EditMessageInput, options?: CallOptions): Promise<AssistantReply> {
    return this.http.json<AssistantReply>({
      method: 'POST',
      path: messagePath(sessionId, messageId, 'edit'),
      body: { ...input, role: 'user' },
      creates: true,
      options,
    });
  }

  /** As `edit`, with the reply streamed like `stream`'s. */
  editStream(
    sessionId: string,
    messageId: string,
    input: EditMessageInput,
    options: CallOptions = {},
  ): Promise<ReplyStream> {
    return this.open(
      {
        method: 'POST',
        path: messagePath(sessionId, messageId, 'edit'),
        body: { ...input, role: 'user' },
        accept: 'text/event-stream',
        creates: true,
      },
      options,
    );
  }

  /**
   * POST /api/chat/sessions/:id/messages/:messageId/regenerate → a new answer to the question an answer answered, once
   * it is complete, with its `version` (e.g. `{index: 2, count: 3}`). The earlier answers are kept as its versions.
   * Regenerating a message of mine is a 400.
   */
  regenerate(
    sessionId: string,
    messageId: string,
    input: RegenerateInput = {},
    options?: CallOptions,
  ): Promise<AssistantReply> {
    return this.http.json<AssistantReply>({
      method: 'POST',
      path: messagePath(sessionId, messageId, 'regenerate'),
      body: input,
      creates: true,
      options,
    });
  }

  /** As `regenerate`, with the reply streamed like `stream`'s. */
  regenerateStream(
    sessionId: string,
    messageId: string,
    input: RegenerateInput = {},
    options: CallOptions = {},
  ): Promise<ReplyStream> {
    return this.open(
      {
        method: 'POST',
        path: messagePath(sessionId, messageId, 'regenerate'),
        body: input,
        accept: 'text/event-stream',
        creates: true,
      },
      options,
    );
  }

  /**
   * POST /api/chat/sessions/:id/messages/:messageId/select → shows this version of a message (any id of a message's
   * `version.siblingIds`): the conversation continues from it, along the branch below it that was last shown. Kept
   * for every later read and reply. Resolves with the session and the newest page (`limit`) of that branch.
   */
  selectVersion(
    sessionId: string,
    messageId: string,
    query: Pick<PageQuery, 'limit'> = {},
    options?: CallOptions,
  ): Promise<SessionWithMessages> {
    return this.http.json<SessionWithMessages>({
      method: 'POST',
      path: messagePath(sessionId, messageId, 'select'),
      query: { ...query },
      idempotent: true,
      options,
    });
  }

  /** POST /api/chat/sessions/:id/messages/:messageId/stop: stops a reply being written (a resumable one, too). */
  stop(sessionId: string, messageId: string, options?: CallOptions): Promise<StoredMessage> {
    return this.http.json<StoredMessage>({
      method: 'POST',
      path: `${messagesPath(sessionId)}/${encodeURIComponent(messageId)}/stop`,
      idempotent: true,
      options,
    });
  }

  /** Sends a request answered with a reply's events and wraps the answer, once it has started, in a ReplyStream. */
  private async open(spec: Omit<RequestSpec, 'options'>, options: CallOptions): Promise<ReplyStream> {
    const { controller, release } = linkedController(options.signal);
    try {
      const response = await this.http.send({ ...spec, options: { ...options, signal: controller.signal } });
      const requestId = () => response.headers.get('x-request-id') ?? undefined;
      return new ReplyStream(response, controller, decodeReplyEvent(requestId), endedEarly, release);
    } catch (err) {
      release();
      throw err;
    }
  }
}

function endedEarly(): KasaError {
  return new KasaError({
    status: 0,
    code: STREAM_ERROR,
    message: 'The connection closed before the reply was complete.',
  });
}
