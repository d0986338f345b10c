import {
  OPENAI_RESPONSES_LIMITS,
  itemImagesOf,
  itemLengthOf,
  type OpenAIChatCompletionRequest,
  type OpenAIResponseOutputItem,
  type OpenAIResponsesContentPart,
  type OpenAIResponsesConversationItem,
  type OpenAIResponsesInputItem,
  type OpenAIResponsesRequest,
} from '@kasa/contracts';
import { InputError, NotFoundError } from '@kasa/service-kit';

type ChatMessage = OpenAIChatCompletionRequest['messages'][number];
type ChatPart = Exclude<ChatMessage['content'], string | null | undefined>[number];

/** Where an item came from, as a 400 names it: `input.<i>`, or the stored conversation of `previous_response_id`. */
type Source = string;

/** A response's output items as the conversation holds them when it is continued. */
export const conversationItemsOf = (output: OpenAIResponseOutputItem[]): OpenAIResponsesConversationItem[] =>
  output.map((item) =>
    item.type === 'message'
      ? { type: 'message', role: 'assistant', content: item.content, id: item.id, status: item.status }
      : item,
  );

/**
 * The input with each `item_reference` replaced by the item it names (an output item of one of the caller's stored
 * responses); a reference that names nothing of theirs is a 404, as OpenAI answers it.
 */
export async function resolveReferences(
  input: OpenAIResponsesInputItem[],
  find: (id: string) => Promise<OpenAIResponsesConversationItem | undefined>,
): Promise<OpenAIResponsesConversationItem[]> {
  const resolved: OpenAIResponsesConversationItem[] = [];
  for (const item of input) {
    if (item.type !== 'item_reference') {
      resolved.push(item);
      continue;
    }
    const found = await find(item.id);
    if (!found) throw new NotFoundError(`Item with id '${item.id}' not found.`);
    resolved.push(found);
  }
  return resolved;
}

/**
 * The conversation a request runs is bounded as one request is, with the stored history of `previous_response_id`
 * and the items that references name: too long is a 400 naming `previous_response_id` (the caller starts afresh),
 * or `input` when its references alone make it so.
 */
export function checkConversationSize(
  history: OpenAIResponsesConversationItem[],
  input: OpenAIResponsesConversationItem[],
): void {
  const all = [...history, ...input];
  const { items, totalChars, images } = OPENAI_RESPONSES_LIMITS;
  const chars = all.reduce((sum, item) => sum + itemLengthOf(item), 0);
  const pictures = all.reduce((sum, item) => sum + itemImagesOf(item), 0);
  const over =
    all.length > items
      ? `${all.length} items (at most ${items})`
      : chars > totalChars
        ? `${chars.toLocaleString('en-US')} characters (at most ${totalChars.toLocaleString('en-US')})`
        : pictures > images
          ? `${pictures} images (at most ${images})`
          : undefined;
  if (!over) return;
  const [path, message] = history.length
    ? [
        'previous_response_id',
        `The conversation of previous_response_id with this input would hold ${over}: start a new one without ` +
          'previous_response_id, sending the items you want to keep as input.',
      ]
    : ['input', `The input with the items it references would hold ${over}.`];
  throw new InputError(message, [{ path, message }]);
}

const textOfParts = (parts: OpenAIResponsesContentPart[]): string =>
  parts.map((part) => (part.type === 'refusal' ? part.refusal : part.type === 'input_image' ? '' : part.text)).join('');

function chatContentOf(parts: OpenAIResponsesContentPart[]): ChatMessage['content'] {
  if (!parts.some((part) => part.type === 'input_image')) return textOfParts(parts);
  return parts.map((part): ChatPart =>
    part.type === 'input_image'
      ? ({ type: 'image_url', image_url: { url: part.image_url ?? '', detail: part.detail ?? 'auto' } } as ChatPart)
      : { type: 'text', text: part.type === 'refusal' ? part.refusal : part.text },
  );
}

/** The Chat Completions request a Responses request runs as, and how to name its fields in a 400. */
export interface TranslatedRequest {
  request: OpenAIChatCompletionRequest;
  /** A field of `request`, as the Responses request names it (`messages.3.content.1.image_url.url` → `input.2.content.1.image_url`). */
  paramOf(path: string): string;
}

/**
 * The request as the same internal turn /v1/chat/completions runs: the instructions and system or developer messages
 * as system messages, messages as messages, a model's function calls as an assistant message's `tool_calls` (with
 * the text right before them), each `function_call_output` as a `tool` message; tools, tool choice, text format and
 * sampling in their Chat Completions shapes.
 */
export function chatRequestOf(
  request: OpenAIResponsesRequest,
  history: OpenAIResponsesConversationItem[],
  input: OpenAIResponsesConversationItem[],
): TranslatedRequest {
  const messages: ChatMessage[] = [];
  const sources: Source[] = [];
  const calls = new Set<string>();
  const push = (message: ChatMessage, source: Source) => {
    messages.push(message);
    sources.push(source);
  };
  if (request.instructions) push({ role: 'system', content: request.instructions }, 'instructions');
  const items: Array<[OpenAIResponsesConversationItem, Source]> = [
    ...history.map((item): [OpenAIResponsesConversationItem, Source] => [item, 'previous_response_id']),
    ...input.map((item, index): [OpenAIResponsesConversationItem, Source] => [item, `input.${index}`]),
  ];
  for (const [item, source] of items) {
    switch (item.type) {
      case 'message':
        push({ role: item.role, content: chatContentOf(item.content) }, source);
        break;
      case 'function_call': {
        calls.add(item.call_id);
        const call = {
          id: item.call_id,
          type: 'function' as const,
          function: { name: item.name, arguments: item.arguments },
        };
        const last = messages.at(-1);
        // Calls right after the model's text (or after other calls) belong to the same assistant turn.
        if (last?.role === 'assistant') {
          last.tool_calls = [...(last.tool_calls ?? []), call];
          if (last.content === '') last.content = null;
        } else push({ role: 'assistant', content: null, tool_calls: [call] }, source);
        break;
      }
      case 'function_call_output': {
        if (!calls.has(item.call_id)) {
          const message =
            'a function_call_output must answer a function_call earlier in the conversation: no function_call has ' +
            `the call_id '${item.call_id}'`;
          throw new InputError(`${source}.call_id: ${message}`, [{ path: `${source}.call_id`, message }]);
        }
        push({ role: 'tool', tool_call_id: item.call_id, content: textOfParts(item.output) }, source);
        break;
      }
    }
  }
  const lastRole = messages.at(-1)?.role;
  if (lastRole !== 'user' && lastRole !== 'tool') {
    const message =
      'input must end with a user message, or with function_call_output items answering the function calls';
    throw new InputError(message, [{ path: 'input', message }]);
  }

  const format = request.text?.format;
  const chat: OpenAIChatCompletionRequest = {
    model: request.model,
    messages,
    ...(request.temperature != null ? { temperature: request.temperature } : {}),
    ...(request.top_p != null ? { top_p: request.top_p } : {}),
    ...(request.max_output_tokens != null ? { max_completion_tokens: request.max_output_tokens } : {}),
    ...(request.user != null ? { user: request.user } : {}),
    ...(request.safety_identifier != null ? { safety_identifier: request.safety_identifier } : {}),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: {
              name: tool.name,
              ...(tool.description != null ? { description: tool.description } : {}),
              ...(tool.parameters != null ? { parameters: tool.parameters } : {}),
              ...(tool.strict != null ? { strict: tool.strict } : {}),
            },
          })),
        }
      : {}),
    ...(request.tool_choice != null
      ? {
          tool_choice:
            typeof request.tool_choice === 'string'
              ? request.tool_choice
              : { type: 'function' as const, function: { name: request.tool_choice.name } },
        }
      : {}),
    ...(request.parallel_tool_calls != null ? { parallel_tool_calls: request.parallel_tool_calls } : {}),
    ...(format
      ? {
          response_format:
            format.type === 'json_schema'
              ? {
                  type: 'json_schema' as const,
                  json_schema: {
                    name: format.name,
                    schema: format.schema,
                    ...(format.description != null ? { description: format.description } : {}),
                    ...(format.strict != null ? { strict: format.strict } : {}),
                  },
                }
              : { type: format.type },
        }
      : {}),
  };
  return { request: chat, paramOf: (path) => responsesParamOf(path, sources) };
}

/** A Chat Completions field path as the Responses request names it. */
function responsesParamOf(path: string, sources: Source[]): string {
  const image = /^messages\.(\d+)\.content\.(\d+)\.image_url\.url$/.exec(path);
  if (image) {
    const source = sources[Number(image[1])] ?? 'input';
    return source.startsWith('input.') ? `${source}.content.${image[2]}.image_url` : source;
  }
  if (path === 'response_format.json_schema.schema') return 'text.format.schema';
  if (path.startsWith('response_format')) return 'text.format';
  if (path.startsWith('messages')) return 'input';
  return path;
}

/** A 400 of the Chat Completions machinery, its fields named as the Responses request names them. */
export function renamedInputError(err: InputError, paramOf: (path: string) => string): InputError {
  if (!Array.isArray(err.details)) return err;
  let message = err.message;
  const details = (err.details as Array<{ path?: unknown; message?: unknown }>).map((detail) => {
    if (typeof detail.path !== 'string') return detail;
    const renamed = paramOf(detail.path);
    if (message.startsWith(`${detail.path}:`)) message = `${renamed}:${message.slice(detail.path.length + 1)}`;
    return { ...detail, path: renamed };
  });
  return new InputError(message, details, err.code);
}
