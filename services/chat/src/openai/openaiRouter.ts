import { OpenAIChatCompletionRequest, type ErrorBody } from '@kasa/contracts';
import { HttpError, errorHandler, parseInput, type Logger } from '@kasa/service-kit';
import { Router, type ErrorRequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import { identityOf, requireIdentity } from '../identity/identity';
import { SseStream } from '../messages/sseStream';
import type { CompletionService } from './completionService';

const OPENAI_ERROR_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
};

/**
 * OpenAI's client libraries read `error.message` from the body; Kasa's clients read `message`. The /v1 routes answer
 * both in one body: Kasa's error shape plus OpenAI's `error` object.
 */
function openAIErrors(): ErrorRequestHandler {
  const shared = errorHandler();
  return (err, req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: ErrorBody) => {
      const status = res.statusCode;
      return json({
        ...body,
        error: { message: body.message, type: OPENAI_ERROR_TYPE[status] ?? 'api_error', code: body.code, param: null },
      });
    };
    shared(err, req, res, next);
  };
}

/** GET /v1/models and POST /v1/chat/completions: the OpenAI Chat Completions API, with personas as the models. */
export function createOpenAIRouter(
  completions: CompletionService,
  options: { heartbeatMs: number; logger: Logger },
): Router {
  const router = Router();
  router.use('/v1', requireIdentity());

  router.get('/v1/models', async (_req, res) => {
    const personas = await completions.models(identityOf(res));
    res.json({
      object: 'list',
      data: personas.map((p) => ({
        id: p.id,
        object: 'model',
        created: 1_735_689_600,
        owned_by: 'kasa',
        name: p.name,
        description: p.expertise,
      })),
    });
  });

  router.post('/v1/chat/completions', async (req, res) => {
    const body = parseInput(OpenAIChatCompletionRequest, req.body);
    const who = identityOf(res);
    const persona = await completions.persona(who, body.model);
    const id = `chatcmpl-${randomUUID().replace(/-/g, '')}`;
    const created = Math.floor(Date.now() / 1000);
    const stop = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) stop.abort(new Error('client disconnected'));
    });

    if (!body.stream) {
      let text = '';
      const result = await completions.complete(who, persona, body, stop.signal, { onText: (t) => (text += t) });
      if (res.writableEnded || res.destroyed) return;
      if (result.status === 'failed')
        throw new HttpError(503, 'upstream_unavailable', 'No AI provider could answer. Please try again.');
      res.set('x-kasa-provider', result.provider).json({
        id,
        object: 'chat.completion',
        created,
        model: persona.id,
        system_fingerprint: `kasa-${result.provider}`,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: usageOf(result),
      });
      return;
    }

    const sse = new SseStream(res, options.heartbeatMs);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: persona.id, system_fingerprint: 'kasa', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`,
      );
    try {
      chunk({ role: 'assistant', content: '' });
      const result = await completions.complete(who, persona, body, stop.signal, {
        onText: (text) => chunk({ content: text }),
      });
      if (result.status === 'failed') {
        res.write(
          `data: ${JSON.stringify({ error: { message: 'No AI provider could answer. Please try again.', type: 'api_error' } })}\n\n`,
        );
      } else {
        chunk({}, 'stop');
        if (body.stream_options?.include_usage) {
          res.write(
            `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: persona.id, choices: [], usage: usageOf(result) })}\n\n`,
          );
        }
      }
      res.write('data: [DONE]\n\n');
    } catch (err) {
      options.logger.error({ err }, 'streamed completion failed');
      if (!res.writableEnded)
        res.write(
          `data: ${JSON.stringify({ error: { message: 'Something went wrong on our side.', type: 'api_error' } })}\n\n`,
        );
    } finally {
      sse.end();
    }
  });

  router.use('/v1', openAIErrors());
  return router;
}

function usageOf(result: { inputTokens: number; outputTokens: number }) {
  return {
    prompt_tokens: result.inputTokens,
    completion_tokens: result.outputTokens,
    total_tokens: result.inputTokens + result.outputTokens,
  };
}
