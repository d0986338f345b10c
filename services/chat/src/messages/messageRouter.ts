import { CreateMessageRequest, MessageIdParams, SessionIdParam } from '@kasa/contracts';
import { ServiceUnavailableError, parseInput, requestIdOf, type Logger } from '@kasa/service-kit';
import { Router, type Request, type Response } from 'express';
import { identityOf, requireIdentity } from '../identity/identity';
import { TooManyRepliesError, type MessageService } from './messageService';
import { SseStream } from './sseStream';

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

/** POST /api/chat/sessions/:sessionId/messages: a reply as one JSON message, or streamed as Server-Sent Events. */
export function createMessageRouter(
  messages: MessageService,
  options: { heartbeatMs: number; logger: Logger },
): Router {
  const router = Router();
  router.post('/api/chat/sessions/:sessionId/messages', requireIdentity(), async (req, res) => {
    const { sessionId } = parseInput(SessionIdParam, req.params, 'path');
    const input = parseInput(CreateMessageRequest, req.body);
    const streaming = (req.get('accept') ?? '').includes('text/event-stream');
    const stop = clientGone(req, res);
    // Plan, ownership and validation errors are answered as JSON before any stream starts.
    const forwardedFor = req.get('x-forwarded-for') ?? req.socket.remoteAddress;
    const turn = await messages
      .prepare(identityOf(res), sessionId, input, requestIdOf(req), forwardedFor)
      .catch((err: unknown) => {
        // The 429's body is the shared error body; the header tells clients when to try again.
        if (err instanceof TooManyRepliesError) res.set('Retry-After', String(err.retryAfterSeconds));
        throw err;
      });

    if (!streaming) {
      const { reply } = await messages.complete(
        turn,
        stop.signal,
        { onText: () => undefined },
        { resumable: input.resumable === true },
      );
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
        },
        { resumable: input.resumable === true },
      );
      if (reply.status === 'failed') sse.send('error', { message: 'No AI provider could answer. Please try again.' });
      else sse.send('done', reply);
    } catch (err) {
      options.logger.error({ err, requestId: requestIdOf(req) }, 'streamed reply failed');
      sse.send('error', { message: 'Something went wrong on our side. Please try again.' });
    } finally {
      sse.end();
    }
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
