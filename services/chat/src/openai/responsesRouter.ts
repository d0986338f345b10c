import {
  OpenAIResponsesRequest,
  OpenAIParamCode,
  type OpenAIResponseObject,
  type OpenAIResponsesConversationItem,
} from '@kasa/contracts';
import { HttpError, InputError, NotFoundError, holdSlot, type Logger } from '@kasa/service-kit';
import { Router } from 'express';
import { identityOf, requireIdentity, type Identity } from '../identity/identity';
import { SseStream } from '../http/sseStream';
import type { TurnResult } from '../providers/providerChain';
import type { ReplySlots } from '../replies/replySlots';
import { TooManyRepliesError } from '../turns/turnPolicy';
import type { CompletionService, PreparedCompletion } from './completionService';
import { parseOpenAIRequest } from './openaiRouter';
import {
  ResponseOutput,
  isResponseId,
  newResponseId,
  responseIdOfItem,
  responseObjectOf,
  settingsOf,
  usageOf,
  type ResponseSettings,
} from './responseObjects';
import {
  chatRequestOf,
  checkConversationSize,
  conversationItemsOf,
  renamedInputError,
  resolveReferences,
} from './responsesInput';
import type { ResponseStore } from './responseStore';
import { InvalidModelOutputError } from './structuredOutput';

const NO_PROVIDER = 'No AI provider could answer. Please try again.';

const notFound = (id: string) => new NotFoundError(`Response with id '${id}' not found.`);

/**
 * A JSON reply checked as /v1/chat/completions checks it; the advice for a reply cut at the token limit names this
 * API's parameter.
 */
function checkedJson(turn: PreparedCompletion, text: string, result: TurnResult): string {
  try {
    return turn.output!.check(text, result.finishReason);
  } catch (err) {
    if (!(err instanceof InvalidModelOutputError)) throw err;
    const message = err.message.replace('max_completion_tokens (or max_tokens)', 'max_output_tokens');
    throw new InvalidModelOutputError(message, err.details);
  }
}

/**
 * POST /v1/responses, GET and DELETE /v1/responses/{id}: OpenAI's Responses API over the same turn as
 * /v1/chat/completions (CompletionService: persona, prompt, tools, structured output, the provider chain), with the
 * person's reply slot held while a response is written and responses kept in ResponseStore.
 */
export function createResponsesRouter(
  completions: CompletionService,
  options: { store: ResponseStore; slots: ReplySlots; heartbeatMs: number; logger: Logger },
): Router {
  const { store, logger } = options;
  const router = Router();
  router.use('/v1/responses', requireIdentity());
  const replySlot = holdSlot({
    slots: options.slots,
    ownerOf: (res) => identityOf(res).userId,
    refuse: (limit) => new TooManyRepliesError(limit),
    logger,
  });

  /** The output item an `item_reference` names, from the caller's stored responses (each read once a request). */
  const itemFinder = (who: Identity) => {
    const read = new Map<string, Promise<OpenAIResponseObject | undefined>>();
    return async (itemId: string): Promise<OpenAIResponsesConversationItem | undefined> => {
      const responseId = responseIdOfItem(itemId);
      if (!responseId) return undefined;
      if (!read.has(responseId))
        read.set(
          responseId,
          store.find(who.userId, responseId).then((stored) => stored?.response),
        );
      const output = (await read.get(responseId))?.output.filter((item) => item.id === itemId) ?? [];
      return conversationItemsOf(output)[0];
    };
  };

  router.post('/v1/responses', replySlot, async (req, res) => {
    const body = parseOpenAIRequest(OpenAIResponsesRequest, req.body);
    const who = identityOf(res);
    const persona = await completions.persona(who, body.model);
    const previousId = body.previous_response_id;
    const previous = previousId
      ? isResponseId(previousId)
        ? await store.find(who.userId, previousId)
        : null
      : undefined;
    if (previousId && !previous) throw new NotFoundError(`Previous response with id '${previousId}' not found.`);
    const history = previous ? [...previous.conversation, ...conversationItemsOf(previous.response.output)] : [];
    const input = await resolveReferences(body.input, itemFinder(who));
    checkConversationSize(history, input);
    const translated = chatRequestOf(body, history, input);
    // Every problem with the request is a 400 before anything is answered, streamed or not.
    const turn = await completions.prepare(persona, translated.request).catch((err: unknown) => {
      throw err instanceof InputError ? renamedInputError(err, translated.paramOf) : err;
    });

    const id = newResponseId();
    const createdAt = Math.floor(Date.now() / 1000);
    const settings: ResponseSettings = settingsOf(body);
    const stop = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) stop.abort(new Error('client disconnected'));
    });
    const responseOf = (
      status: OpenAIResponseObject['status'],
      output: ResponseOutput,
      result?: TurnResult,
      error?: { code: string; message: string },
    ) =>
      responseObjectOf({
        id,
        createdAt,
        model: persona.id,
        status,
        output: output.items,
        usage: result ? usageOf(result) : null,
        settings,
        ...(error ? { error } : {}),
      });
    /** Keeps the finished response when the caller asked for it, before it is answered. */
    const keep = async (response: OpenAIResponseObject) => {
      if (settings.store) await store.save(who.userId, [...history, ...input], response);
    };

    if (!body.stream) {
      const output = new ResponseOutput(id, () => undefined);
      let held = '';
      const result = await completions.complete(who, turn, stop.signal, {
        onText: (text) => (turn.output ? (held += text) : output.text(text)),
        onToolCall: (event) => output.toolCall(event),
      });
      if (res.writableEnded || res.destroyed) return;
      if (result.status === 'failed') throw new HttpError(503, 'upstream_unavailable', NO_PROVIDER);
      // A JSON reply is checked before it is returned; a turn that ended in function calls has no reply to check.
      if (held) output.text(output.callCount ? held : checkedJson(turn, held, result));
      output.close();
      const response = responseOf(result.finishReason === 'length' ? 'incomplete' : 'completed', output, result);
      await keep(response);
      res.set('x-kasa-provider', result.provider).json(response);
      return;
    }

    const sse = new SseStream(res, options.heartbeatMs);
    const output = new ResponseOutput(id, (event) => sse.send(event.type, event));
    const fail = (error: { code: string; message: string }, result?: TurnResult) => {
      output.close('incomplete');
      output.finish(responseOf('failed', output, result, error));
    };
    // A JSON reply is held back until it is complete and checked, so that a stream never carries JSON that is not.
    let held = '';
    try {
      output.start(
        responseObjectOf({
          id,
          createdAt,
          model: persona.id,
          status: 'in_progress',
          output: [],
          usage: null,
          settings,
        }),
      );
      const result = await completions.complete(who, turn, stop.signal, {
        onText: (text) => (turn.output ? (held += text) : output.text(text)),
        onToolCall: (event) => output.toolCall(event),
      });
      if (result.status === 'stopped' || res.destroyed) return;
      if (result.status === 'failed') return fail({ code: 'server_error', message: NO_PROVIDER }, result);
      if (held) {
        try {
          output.text(output.callCount ? held : checkedJson(turn, held, result));
        } catch (err) {
          return fail({ code: (err as HttpError).code ?? 'server_error', message: (err as Error).message }, result);
        }
      }
      output.close();
      const response = responseOf(result.finishReason === 'length' ? 'incomplete' : 'completed', output, result);
      await keep(response);
      output.finish(response);
    } catch (err) {
      logger.error({ err }, 'streamed response failed');
      if (!res.writableEnded) fail({ code: 'server_error', message: 'Something went wrong on our side.' });
    } finally {
      sse.end();
    }
  });

  router.get('/v1/responses/:id', async (req, res) => {
    const id = String(req.params.id);
    if (req.query.stream === 'true')
      throw new InputError(
        'stream is not supported here: a stored response is returned whole',
        [{ path: 'stream', message: 'a stored response is returned whole' }],
        OpenAIParamCode.unsupportedValue,
      );
    const stored = isResponseId(id) ? await store.find(identityOf(res).userId, id) : null;
    if (!stored) throw notFound(id);
    res.json(stored.response);
  });

  router.delete('/v1/responses/:id', async (req, res) => {
    const id = String(req.params.id);
    if (!isResponseId(id) || !(await store.remove(identityOf(res).userId, id))) throw notFound(id);
    res.json({ id, object: 'response.deleted', deleted: true });
  });

  return router;
}
