import type { ProviderSettings } from '@kasa/ai-providers';
import { Output, jsonSchema, tool, type JSONSchema7, type JSONValue, type ToolChoice, type ToolSet } from 'ai';
import type { OutputRequest, ToolRequest, ToolSpec } from './chatProvider';

/**
 * The tools of a turn as the AI SDK's tool set. None has an `execute`: the SDK streams the model's calls and stops,
 * and the caller of the OpenAI-compatible API runs them.
 */
export function toolSetOf(tools: ToolSpec[]): ToolSet {
  return Object.fromEntries(
    tools.map((spec) => [
      spec.name,
      tool({
        ...(spec.description ? { description: spec.description } : {}),
        inputSchema: jsonSchema(spec.parameters as JSONSchema7),
        ...(spec.strict !== undefined ? { strict: spec.strict } : {}),
      }),
    ]),
  );
}

/** OpenAI's tool choice as the AI SDK's. */
export function toolChoiceOf(choice: ToolRequest['choice']): ToolChoice<ToolSet> {
  return typeof choice === 'string' ? choice : { type: 'tool', toolName: choice.name };
}

/**
 * The reply's form through the AI SDK's structured output: each provider is asked in its own way (OpenAI's
 * `response_format`, Anthropic's and Google's JSON modes...). Kasa checks the reply itself once it is complete.
 */
export function outputOf(output: OutputRequest) {
  const named = {
    ...(output.name ? { name: output.name } : {}),
    ...(output.description ? { description: output.description } : {}),
  };
  return output.schema
    ? Output.object({ schema: jsonSchema(output.schema as JSONSchema7), ...named })
    : Output.json(named);
}

/** The kinds that are plain OpenAI-compatible servers: they take unknown options as request fields. */
const COMPATIBLE_KINDS: ReadonlySet<ProviderSettings['kind']> = new Set([
  'openai-compatible',
  'lmstudio',
  'llamacpp',
  'vllm',
]);

/**
 * The provider options a call needs, per provider: the end user's id, whether the model may call tools in parallel
 * and, for a reply with a JSON schema, whether the schema is enforced strictly. OpenAI's strict mode refuses schemas
 * it cannot enforce, so it is on only when the caller asked for it (`strict`), as on OpenAI's own API.
 */
export function providerToolOptions(
  settings: Pick<ProviderSettings, 'name' | 'kind'>,
  options: { user?: string | undefined; parallel?: boolean | undefined; strictSchema?: boolean | undefined },
): Record<string, Record<string, JSONValue>> {
  const { user, parallel, strictSchema: strict } = options;
  const defined = (entries: Record<string, JSONValue | undefined>) =>
    Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as Record<string, JSONValue>;
  const result: Record<string, Record<string, JSONValue>> = {
    // OpenAI's provider (and Azure's, which reads the same options) and every OpenAI-compatible one read these.
    openai: defined({ user, parallelToolCalls: parallel, strictJsonSchema: strict }),
    openaiCompatible: defined({ user, strictJsonSchema: strict }),
    anthropic: defined({ disableParallelToolUse: parallel === undefined ? undefined : !parallel }),
    groq: defined({ parallelToolCalls: parallel }),
  };
  // An OpenAI-compatible server gets the options under its own name as request fields, as they are.
  if (parallel !== undefined && COMPATIBLE_KINDS.has(settings.kind))
    result[settings.name] = { ...result[settings.name], parallel_tool_calls: parallel };
  return Object.fromEntries(Object.entries(result).filter(([, value]) => Object.keys(value).length > 0));
}
