import type { OpenAIChatCompletionRequest } from '@kasa/contracts';
import type { PromptMessage, ToolRequest } from '../providers/chatProvider';

type ChatMessage = OpenAIChatCompletionRequest['messages'][number];

/** An empty parameter list: what a function without `parameters` takes (OpenAI's providers want an object schema). */
const NO_PARAMETERS = { type: 'object', properties: {} };

/**
 * The request's tools and tool choice as the providers' tool request; undefined when the turn involves no tools.
 * A conversation that already holds tool calls is a tool turn even without `tools`: only providers that read tool
 * calls and results may answer it (they are then offered none).
 */
export function toolRequestOf(request: OpenAIChatCompletionRequest): ToolRequest | undefined {
  const tools = request.tools ?? [];
  const inConversation = request.messages.some((m) => m.role === 'tool' || (m.tool_calls?.length ?? 0) > 0);
  if (tools.length === 0 && !inConversation) return undefined;
  const choice = request.tool_choice ?? 'auto';
  return {
    tools: tools.map(({ function: fn }) => ({
      name: fn.name,
      ...(fn.description ? { description: fn.description } : {}),
      parameters: fn.parameters ?? NO_PARAMETERS,
      ...(fn.strict != null ? { strict: fn.strict } : {}),
    })),
    choice: tools.length === 0 ? 'none' : typeof choice === 'string' ? choice : { name: choice.function.name },
    ...(request.parallel_tool_calls != null && tools.length > 0 ? { parallel: request.parallel_tool_calls } : {}),
  };
}

/** The text of a message: the string, or its text parts joined. */
export const textOf = (content: ChatMessage['content']): string =>
  content == null ? '' : typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');

/**
 * An assistant message with tool calls, or a tool message, as a prompt message; undefined for any other message.
 * A tool result carries its tool's name, found from the call it answers (OpenAI's tool messages name only the call).
 */
export function toolPromptMessageOf(message: ChatMessage, toolNames: Map<string, string>): PromptMessage | undefined {
  if (message.role === 'assistant' && message.tool_calls?.length) {
    for (const call of message.tool_calls) toolNames.set(call.id, call.function.name);
    return {
      role: 'assistant',
      content: textOf(message.content),
      toolCalls: message.tool_calls.map((call) => ({
        id: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
      })),
    };
  }
  if (message.role === 'tool') {
    const id = message.tool_call_id ?? '';
    return { role: 'tool', content: textOf(message.content), toolCallId: id, toolName: toolNames.get(id) ?? '' };
  }
  return undefined;
}

/**
 * The history within its budget, widened back to a user message when it would start inside a tool exchange: a
 * tool result without the call it answers (or a call without its question) is refused by providers.
 */
export function keepToolExchangesWhole(all: PromptMessage[], fitted: PromptMessage[]): PromptMessage[] {
  let start = all.length - fitted.length;
  if (fitted.length === 0 || fitted[0]!.role === 'user' || all[start] !== fitted[0]) return fitted;
  while (start > 0 && all[start]!.role !== 'user') start--;
  return all.slice(start);
}
