import {
  CreateMessageRequest,
  EditMessageRequest,
  MessageIdParams,
  RegenerateRequest,
  SelectVersionQuery,
  SessionIdParam,
} from '@kasa/contracts';
import { ServiceUnavailableError, parseInput, requestIdOf, type Logger } from '@kasa/service-kit';
import { Router, type Request, type Response } from 'express';
import { SseStream } from '../http/sseStream';
import { identityOf, requireIdentity } from '../identity/identity';
import type { SessionService } from '../sessions/sessionService';
import type { TurnRequest } from '../turns/turnPlace';
import type { MessageService } from './messageService';

/** The header that carries the stored user message's id on the non-streamed answer. */
export const USER_MESSAGE_ID_HEADER = 'x-kasa-user-message-id';

/** An AbortSignal that fires when the client goes away before the response is finished (the user's stop). */
function clientGone(req: Request, res: Response): AbortController {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  req.on('aborted', () => controller.abort(new Error('client aborted')));
  return controller;
}

/**
 * POST /api/chat/sessions/:sessionId/messages (and a message's edit and regenerate, which answer the same way): a
 * reply as one JSON message, or streamed as Server-Sent Events; a message's stop, stream and select.
 */
export function createMessageRouter(
  messages: MessageService,
  sessions: SessionService,
  options: { heartbeatMs: number; logger: Logger },
): Router {
  const router = Router();

  /** Stores the turn and answers its reply: whole (201) or, with `Accept: text/event-stream`, streamed. */
  async function answer(req: Request, res: Response, sessionId: string, request: TurnRequest): Promise<void> {
    const streaming = (req.get('accept') ?? '').includes('text/event-stream');
    const resumable = request.input.resumable === true;
    const stop = clientGone(req, res);
    // Plan, ownership and validation errors are answered as JSON before any stream starts.
    const forwardedFor = req.get('x-forwarded-for') ?? req.socket.remoteAddress;
    // At the concurrent-replies limit: the shared error handler answers 429 with Retry-After.
    const turn = await messages.prepare(identityOf(res), sessionId, request, requestIdOf(req), forwardedFor);

    if (!streaming) {
      const { reply } = await messages.complete(turn, stop.signal, { onText: () => undefined }, { resumable });
      if (res.writableEnded || res.destroyed) return;
      if (reply.status === 'failed')
        throw new ServiceUnavailableError('No AI provider could answer. Please try again.');
      res.status(201).set(USER_MESSAGE_ID_HEADER, reply.userMessageId).json(reply);
      return;
    }

    const sse = new SseStream(res, options.heartbeatMs);
    try {
      const { reply } = await messages.complete(
        turn,
        stop.signal,
        {
          onProvider: ({ provider, model, continued }) =>
            sse.send('meta', {
              userMessageId: turn.userMessageId,
              assistantMessageId: turn.assistant._id.toString(),
              provider,
              model,
              continued,
            }),
          onText: (text) => sse.send('token', { text }),
          // The local model answers in turn: the place in its line until the reply starts (0 when it does).
          onQueued: (position) => sse.send('queued', { position }),
        },
        { resumable },
      );
      if (reply.status === 'failed') sse.send('error', { message: 'No AI provider could answer. Please try again.' });
      else sse.send('done', reply);
    } catch (err) {
      options.logger.error({ err, requestId: requestIdOf(req) }, 'streamed reply failed');
      sse.send('error', { message: 'Something went wrong on our side. Please try again.' });
    } finally {
      sse.end();
    }
  }

  router.post('/api/chat/sessions/:sessionId/messages', requireIdentity(), async (req, res) => {
    const { sessionId } = parseInput(SessionIdParam, req.params, 'path');
    const input = parseInput(CreateMessageRequest, req.body);
    await answer(req, res, sessionId, { kind: 'send', input });
  });

  // A new version of one of my messages, answered like a new message. A POST (not a PATCH of the message): it creates
  // a message and a reply, and takes an Idempotency-Key like every creating POST.
  router.post('/api/chat/sessions/:sessionId/messages/:messageId/edit', requireIdentity(), async (req, res) => {
    const { sessionId, messageId } = parseInput(MessageIdParams, req.params, 'path');
    const input = parseInput(EditMessageRequest, req.body);
    await answer(req, res, sessionId, { kind: 'edit', messageId, input });
  });

  // A new version of an answer, to the same question. The body is optional.
  router.post('/api/chat/sessions/:sessionId/messages/:messageId/regenerate', requireIdentity(), async (req, res) => {
    const { sessionId, messageId } = parseInput(MessageIdParams, req.params, 'path');
    const input = parseInput(RegenerateRequest, req.body ?? {});
    await answer(req, res, sessionId, { kind: 'regenerate', messageId, input });
  });

  // The ‹ 1/3 › arrows: shows a version, and the branch below it that was last shown.
  router.post('/api/chat/sessions/:sessionId/messages/:messageId/select', requireIdentity(), async (req, res) => {
    const { sessionId, messageId } = parseInput(MessageIdParams, req.params, 'path');
    const page = parseInput(SelectVersionQuery, req.query, 'query');
    res.json(await sessions.select(identityOf(res), sessionId, messageId, page));
  });

  // The stop button: works for any reply being written, on whichever replica writes it.
  router.post('/api/chat/sessions/:sessionId/messages/:messageId/stop', requireIdentity(), async (req, res) => {
    const { sessionId, messageId } = parseInput(MessageIdParams, req.params, 'path');
    res.status(202).json(await messages.requestStop(identityOf(res), sessionId, messageId));
  });

  // Follows a reply (a page reloaded while a resumable reply was being written): the text so far, then the rest.
  router.get('/api/chat/sessions/:sessionId/messages/:messageId/stream', requireIdentity(), async (req, res) => {
    const { sessionId, messageId } = parseInput(MessageIdParams, req.params, 'path');
    const who = identityOf(res);
    const gone = clientGone(req, res);
    let sse: SseStream | undefined;
    const open = () => (sse ??= new SseStream(res, options.heartbeatMs));
    try {
      await messages.follow(who, sessionId, messageId, gone.signal, {
        opened: () => void open(),
        meta: (meta) => open().send('meta', meta),
        token: (text) => open().send('token', { text }),
        done: (reply) => open().send('done', reply),
      });
    } catch (err) {
      // Before the stream opened (404, 400) the JSON error handler answers; after, an error event ends the stream.
      if (!sse) throw err;
      options.logger.error({ err, requestId: requestIdOf(req) }, 'following a reply failed');
      sse.send('error', { message: 'Something went wrong on our side. Please try again.' });
    } finally {
      sse?.end();
    }
  });

  return router;
}
