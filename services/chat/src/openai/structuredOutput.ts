import { OpenAICompletionErrorCode, type OpenAIResponseFormat } from '@kasa/contracts';
import { HttpError, InputError } from '@kasa/service-kit';
import { z } from 'zod';
import type { FinishReason, OutputRequest } from '../providers/chatProvider';

/** What a JSON reply must be, and how it is checked once complete. */
export interface StructuredOutput {
  /** What the providers are asked for (through the AI SDK's structured output). */
  request: OutputRequest;
  /**
   * Told to the model in the system prompt as well: providers without a native JSON schema mode (most
   * OpenAI-compatible servers) get only "JSON", and OpenAI's JSON mode wants the word in the prompt.
   */
  instruction: string;
  /** The reply as it is returned (the JSON text, without a code fence around it), or an error saying what is wrong. */
  check(text: string, finishReason: FinishReason): string;
}

/** How many of a schema's problems an error names. */
const MAX_PROBLEMS = 5;

/** A reply that is not what `response_format` asked for: a 502, since the model (not the caller) got it wrong. */
export class InvalidModelOutputError extends HttpError {
  constructor(message: string, details?: unknown) {
    super(502, OpenAICompletionErrorCode.invalidModelOutput, message, details);
  }
}

/** The JSON text of a reply: some models put it in a Markdown code fence although they were asked not to. */
export function jsonTextOf(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n?([\s\S]*?)\n?\s*```$/i.exec(trimmed);
  return fenced ? fenced[1]!.trim() : trimmed;
}

/**
 * The JSON Schema as a validator. Zod (already the service's validation library) reads JSON Schema; the few
 * keywords it cannot check (`if`/`then`/`else`, `not`, `dependentSchemas`, `unevaluated*`, remote `$ref`s) are a
 * 400, because a reply Kasa cannot check must not be passed off as checked.
 */
function validatorOf(schema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (err) {
    const path = 'response_format.json_schema.schema';
    const reason = err instanceof Error ? err.message : 'it could not be read';
    const message = `the JSON schema cannot be used to check the reply: ${reason}`;
    throw new InputError(`${path}: ${message}`, [{ path, message }]);
  }
}

const where = (path: PropertyKey[]) => (path.length ? path.map(String).join('.') : '(the whole reply)');

/** What `response_format` asks for, or undefined for text (the default). */
export function structuredOutputOf(format: OpenAIResponseFormat | null | undefined): StructuredOutput | undefined {
  if (!format || format.type === 'text') return undefined;
  const spec = format.type === 'json_schema' ? format.json_schema : undefined;
  const schema = spec?.schema ?? undefined;
  const validator = schema ? validatorOf(schema) : undefined;
  const request: OutputRequest = {
    type: 'json',
    ...(schema ? { schema } : {}),
    ...(spec?.name ? { name: spec.name } : {}),
    ...(spec?.description ? { description: spec.description } : {}),
    ...(spec?.strict != null ? { strict: spec.strict } : {}),
  };
  const instruction = schema
    ? `Reply with JSON only (no other text, no code fence) that is valid against this JSON Schema` +
      `${spec?.name ? ` named ${spec.name}` : ''}: ${JSON.stringify(schema)}`
    : spec
      ? 'Reply with JSON only: no other text, no code fence.'
      : 'Reply with one JSON object only: no other text, no code fence.';

  return {
    request,
    instruction,
    check(text, finishReason) {
      const json = jsonTextOf(text);
      let value: unknown;
      try {
        value = JSON.parse(json);
      } catch (err) {
        if (finishReason === 'length')
          throw new InvalidModelOutputError(
            'The reply was cut at the token limit before its JSON was complete: raise max_completion_tokens ' +
              '(or max_tokens).',
          );
        throw new InvalidModelOutputError('The model did not reply with valid JSON. Please try again.', {
          reason: err instanceof Error ? err.message : 'not JSON',
        });
      }
      if (format.type === 'json_object' && (typeof value !== 'object' || value === null || Array.isArray(value)))
        throw new InvalidModelOutputError('The model did not reply with a JSON object. Please try again.');
      if (validator) {
        const result = validator.safeParse(value);
        if (!result.success) {
          const problems = result.error.issues
            .slice(0, MAX_PROBLEMS)
            .map((issue) => ({ path: where(issue.path), message: issue.message }));
          throw new InvalidModelOutputError(
            `The model's reply does not match the JSON schema '${spec?.name ?? 'response'}' (${problems
              .map((p) => `${p.path}: ${p.message}`)
              .join('; ')}). Please try again.`,
            { problems },
          );
        }
      }
      return json;
    },
  };
}
