import { OpenAIChatCompletionRequest, OpenAIEmbeddingRequest, type Persona } from '@kasa/contracts';
import { HttpError, InputError, describeIssues, holdSlot, parseInput, type Logger } from '@kasa/service-kit';
import { Router } from 'express';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { identityOf, requireIdentity } from '../identity/identity';
import { SseStream } from '../http/sseStream';
import { TooManyRepliesError } from '../turns/turnPolicy';
import type { ReplySlots } from '../replies/replySlots';
import type { CompletionService } from './completionService';
import { base64Of, type EmbeddingService } from './embeddingService';
import { ToolCallChunks, toolCallsOf } from './toolCallChunks';

/** The same in streamed and plain answers: it names Kasa's serving configuration, not the provider of the moment. */
const SYSTEM_FINGERPRINT = 'fp_kasa';

/**
 * A request of the OpenAI-compatible API, or a 400 naming its first problem; a refused parameter carries OpenAI's code
 * for it (`unsupported_parameter`, `unsupported_value` or `unknown_parameter`).
 */
export function parseOpenAIRequest<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = describeIssues(result.error);
  const first = issues[0];
  const code = (result.error.issues[0] as { params?: { code?: unknown } } | undefined)?.params?.code;
  if (typeof code === 'string') throw new InputError(first!.message, issues, code);
  const message =
    first?.path && !first.message.startsWith(first.path) ? `${first.path}: ${first.message}` : first?.message;
  throw new InputError(message ?? 'Invalid request body', issues);
}

const modelOf = (p: Persona) => ({
  id: p.id,
  object: 'model' as const,
  created: 1_735_689_600,
  owned_by: 'kasa',
  name: p.name,
  description: p.expertise,
});

/**
 * GET /v1/models, GET /v1/models/{id} and POST /v1/chat/completions: OpenAI's Models and Chat Completions APIs, with
 * personas as the models.
 */
export function createOpenAIRouter(
  completions: CompletionService,
  options: {
    heartbeatMs: number;
    logger: Logger;
    /** The chat's concurrent-replies limit: a completion holds one of the person's reply slots while it runs. */
    slots: ReplySlots;
    /** POST /v1/embeddings (a call holds a reply slot too). */
    embeddings?: EmbeddingService;
  },
): Router {
  const router = Router();
  router.use('/v1', requireIdentity());
  // One limit for a person's replies on /api/chat and /v1 together: at the limit, 429 in OpenAI's error shape.
  const replySlot = holdSlot({
    slots: options.slots,
    ownerOf: (res) => identityOf(res).userId,
    refuse: (limit) => new TooManyRepliesError(limit),
    logger: options.logger,
  });

  router.get('/v1/models', async (_req, res) => {
    const personas = await completions.models(identityOf(res));
    res.json({ object: 'list', data: personas.map(modelOf) });
  });

  router.get('/v1/models/:id', async (req, res) => {
    res.json(modelOf(await completions.persona(identityOf(res), String(req.params.id))));
  });

  router.post('/v1/chat/completions', replySlot, async (req, res) => {
    const body = parseOpenAIRequest(OpenAIChatCompletionRequest, req.body);
    const who = identityOf(res);
    const persona = await completions.persona(who, body.model);
    const id = `chatcmpl-${randomUUID().replace(/-/g, '')}`;
    const created = Math.floor(Date.now() / 1000);
    const stop = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) stop.abort(new Error('client disconnected'));
    });

    // Every problem with the request is a 400 before anything is answered, streamed or not.
    const turn = await completions.prepare(persona, body);

    if (!body.stream) {
      let text = '';
      const result = await completions.complete(who, turn, stop.signal, { onText: (t) => (text += t) });
      if (res.writableEnded || res.destroyed) return;
      if (result.status === 'failed')
        throw new HttpError(503, 'upstream_unavailable', 'No AI provider could answer. Please try again.');
      const toolCalls = toolCallsOf(result);
      // A JSON reply is checked before it is returned; a turn that ended in tool calls has no reply to check.
      const content = turn.output && !toolCalls.length ? turn.output.check(text, result.finishReason) : text;
      res.set('x-kasa-provider', result.provider).json({
        id,
        object: 'chat.completion',
        created,
        model: persona.id,
        system_fingerprint: SYSTEM_FINGERPRINT,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: toolCalls.length && !content ? null : content,
              refusal: null,
              ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
            },
            logprobs: null,
            finish_reason: result.finishReason,
          },
        ],
        usage: usageOf(result),
      });
      return;
    }

    const sse = new SseStream(res, options.heartbeatMs);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: persona.id, system_fingerprint: SYSTEM_FINGERPRINT, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`,
      );
    const failure = (message: string, code: string | null = null) =>
      res.write(`data: ${JSON.stringify({ error: { message, type: 'api_error', param: null, code } })}\n\n`);
    const toolCalls = new ToolCallChunks((calls) => chunk({ tool_calls: calls }));
    // A JSON reply is held back until it is complete and checked, so that a stream never carries JSON that is not.
    let held = '';
    try {
      chunk({ role: 'assistant', content: '' });
      const result = await completions.complete(who, turn, stop.signal, {
        onText: (text) => (turn.output ? (held += text) : chunk({ content: text })),
        onToolCall: (event) => toolCalls.add(event),
      });
      if (result.status === 'failed') {
        failure('No AI provider could answer. Please try again.');
      } else {
        let checked = true;
        if (turn.output && held && !toolCalls.count) {
          try {
            chunk({ content: turn.output.check(held, result.finishReason) });
          } catch (err) {
            checked = false;
            failure((err as Error).message, (err as { code?: string }).code ?? null);
          }
        }
        if (checked) {
          chunk({}, result.finishReason);
          if (body.stream_options?.include_usage) {
            res.write(
              `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: persona.id, system_fingerprint: SYSTEM_FINGERPRINT, choices: [], usage: usageOf(result) })}\n\n`,
            );
          }
        }
      }
      res.write('data: [DONE]\n\n');
    } catch (err) {
      options.logger.error({ err }, 'streamed completion failed');
      if (!res.writableEnded) failure('Something went wrong on our side.');
    } finally {
      sse.end();
    }
  });

  const embeddings = options.embeddings;
  if (embeddings)
    router.post('/v1/embeddings', replySlot, async (req, res) => {
      const body = parseInput(OpenAIEmbeddingRequest, req.body);
      const stop = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) stop.abort(new Error('client disconnected'));
      });
      const result = await embeddings.embed(body, stop.signal);
      if (res.writableEnded || res.destroyed) return;
      const base64 = body.encoding_format === 'base64';
      res.set('x-kasa-provider', result.provider).json({
        object: 'list',
        data: result.vectors.map((vector, index) => ({
          object: 'embedding',
          index,
          embedding: base64 ? base64Of(vector) : vector,
        })),
        model: result.model,
        usage: { prompt_tokens: result.tokens, total_tokens: result.tokens },
      });
    });

  // Errors answer in OpenAI's shape as well as Kasa's: the kit's error handler does it for every /v1 path.
  return router;
}

function usageOf(result: { inputTokens: number; outputTokens: number }) {
  return {
    prompt_tokens: result.inputTokens,
    completion_tokens: result.outputTokens,
    total_tokens: result.inputTokens + result.outputTokens,
  };
}
