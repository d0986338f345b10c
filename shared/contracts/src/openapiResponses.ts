import type { Operation } from './openapi';
import {
  OpenAIResponseDeleted,
  OpenAIResponseObject,
  OpenAIResponsesRequest,
  OpenAIResponseStreamEvent,
} from './openaiResponses';
import { z } from './zod';

const ResponseId = z.string().min(1).max(64).openapi({
  description: 'A response id (`resp_` and 32 hex digits)',
  example: 'resp_0123456789abcdef0123456789abcdef',
});

const EXAMPLE_ID = 'resp_0123456789abcdef0123456789abcdef';

/** A stored response, as POST /v1/responses answers it and GET returns it. */
const exampleResponse = {
  id: EXAMPLE_ID,
  object: 'response',
  created_at: 1_767_225_600,
  status: 'completed',
  background: false,
  completed_at: 1_767_225_601,
  error: null,
  incomplete_details: null,
  instructions: 'Answer in one sentence.',
  max_output_tokens: null,
  max_tool_calls: null,
  model: 'nana',
  output: [
    {
      id: 'msg_0123456789abcdef0123456789abcdef0000',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [
        {
          type: 'output_text',
          text: 'Try the Kejetia market in Kumasi, one of the largest in West Africa.',
          annotations: [],
        },
      ],
    },
  ],
  parallel_tool_calls: true,
  previous_response_id: null,
  reasoning: { effort: null, summary: null },
  safety_identifier: null,
  service_tier: 'default',
  store: true,
  temperature: null,
  text: { format: { type: 'text' } },
  tool_choice: 'auto',
  tools: [],
  top_logprobs: 0,
  top_p: null,
  truncation: 'disabled',
  usage: {
    input_tokens: 412,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 17,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 429,
  },
  user: null,
  metadata: {},
};

/** OpenAI's Responses API over the personas (the chat service), for OpenAI's clients and agent frameworks unchanged. */
export const responsesOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/responses',
    summary: 'Create a model response',
    description:
      'OpenAI’s Responses API over the same turn as /v1/chat/completions: the model is a persona id. input is a ' +
      'text or a list of messages (input_text, input_image as a base64 data URL, output_text), function_call, ' +
      'function_call_output and item_reference items; instructions; tools of type function with tool_choice and ' +
      'parallel_tool_calls (Kasa never runs a tool: the output holds function_call items and the caller sends ' +
      'function_call_output items back); text.format text, json_object or json_schema (the JSON is checked before ' +
      'it is returned); temperature, top_p, max_output_tokens (status incomplete when the reply is cut there), ' +
      'metadata, user. With store (the default) the response is kept 30 days for previous_response_id, which ' +
      'continues its conversation (its input and output, not its instructions), and for GET and DELETE. Tools and ' +
      'JSON output need an AI provider that supports them (else a 400 naming the model). The answer holds one of ' +
      'the person’s reply slots while it is written.',
    tag: 'OpenAI-compatible',
    auth: true,
    body: OpenAIResponsesRequest,
    successStatus: 200,
    response: OpenAIResponseObject,
    stream: {
      status: 200,
      contentType: 'text/event-stream',
      description:
        'With stream: true, Server-Sent Events in OpenAI’s names and order, each `event: <type>` with its JSON as ' +
        'data and a sequence_number from 0: response.created, response.in_progress; per output item ' +
        'response.output_item.added, then for a message response.content_part.added, response.output_text.delta…, ' +
        'response.output_text.done, response.content_part.done, and for a function call ' +
        'response.function_call_arguments.delta…, response.function_call_arguments.done; response.output_item.done; ' +
        'last response.completed (response.incomplete when cut at max_output_tokens, response.failed with ' +
        'response.error when no provider could answer or the JSON was not valid). JSON output arrives whole, once ' +
        'checked',
      schema: OpenAIResponseStreamEvent,
    },
    errors: [404, 429, 502],
    errorNotes: {
      400:
        'A parameter Kasa does not support (unsupported_parameter, unsupported_value) or does not know ' +
        '(unknown_parameter), named by error.param; or a conversation of previous_response_id past 200 items, ' +
        '320,000 characters or 4 images',
      404: 'The model (persona), previous_response_id or an item_reference is unknown, expired or someone else’s',
      429: 'The person’s replies at once are all being written',
      502: 'invalid_model_output: the model’s reply was not the JSON that text.format asked for',
    },
    example: {
      request: {
        model: 'nana',
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Where should I shop in Kumasi?' }] },
        ],
        instructions: 'Answer in one sentence.',
      },
      response: exampleResponse,
    },
  },
  {
    method: 'get',
    path: '/v1/responses/{id}',
    summary: 'Get a model response',
    description:
      'One of the caller’s stored responses (POST /v1/responses with store, the default), as it was answered. ' +
      'Someone else’s, an expired one (after 30 days), a deleted one or an unknown id is a 404.',
    tag: 'OpenAI-compatible',
    auth: true,
    params: { id: ResponseId },
    response: OpenAIResponseObject,
    example: { response: exampleResponse },
  },
  {
    method: 'delete',
    path: '/v1/responses/{id}',
    summary: 'Delete a model response',
    description:
      'Deletes one of the caller’s stored responses: it can no longer be retrieved or continued with ' +
      'previous_response_id. Someone else’s or an unknown id is a 404.',
    tag: 'OpenAI-compatible',
    auth: true,
    params: { id: ResponseId },
    successStatus: 200,
    response: OpenAIResponseDeleted,
    example: { response: { id: EXAMPLE_ID, object: 'response.deleted', deleted: true } },
  },
];
