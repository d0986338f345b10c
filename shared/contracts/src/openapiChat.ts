import {
  AssistantReply,
  ChatPageQuery,
  ChatCapabilities,
  ChatProvidersResponse,
  ChatSearchQuery,
  ChatSearchResults,
  CreatePersonaRequest,
  EditMessageRequest,
  KASA_EMBEDDING_MODEL,
  OpenAIChatCompletion,
  OpenAIChatCompletionChunk,
  OpenAIChatCompletionRequest,
  OpenAIEmbeddingList,
  OpenAIEmbeddingRequest,
  Persona,
  RegenerateRequest,
  RenameSessionRequest,
  SelectVersionQuery,
  Session,
  SessionPage,
  SessionWithMessages,
  StoredMessage,
  UpdatePersonaRequest,
} from './chat';
import { Attachment, AttachmentId, UploadAttachmentQuery } from './attachments';
import { ObjectIdString } from './common';
import { ConversationShare, ShareToken, SharedConversation } from './shares';
import type { Operation } from './openapi';
import { z } from './zod';

const sessionId = { sessionId: ObjectIdString };
/** A persona as an OpenAI model, with Kasa's two additions: the persona's name and its expertise. */
const OpenAIModel = z
  .object({
    id: z.string(),
    object: z.literal('model'),
    created: z.number(),
    owned_by: z.string(),
    /** The persona's display name (e.g. `Merla`). */
    name: z.string(),
    /** What the persona knows about: its expertise. */
    description: z.string(),
  })
  .openapi('OpenAIModel');
/** Inline in the document (the SDKs' contract tests read it as `GET /v1/models 200`). */
const OpenAIModelList = z.object({ object: z.literal('list'), data: z.array(OpenAIModel) });
const exampleModel = {
  id: 'merla',
  object: 'model',
  created: 1767225600,
  owned_by: 'kasa',
  name: 'Merla',
  description: 'Finance expert',
};
const TIME = '2026-03-14T09:30:00.000Z';
const messageIds = { sessionId: ObjectIdString, messageId: ObjectIdString };
/** A new version's reply streams exactly as a sent message's does. */
const replyStream = {
  status: 200,
  contentType: 'text/event-stream',
  description:
    'With Accept: text/event-stream, the reply as Server-Sent Events: meta {userMessageId, assistantMessageId, ' +
    'provider, model, continued}, token {text}, done (the stored reply), error {message}',
};

/** The chat service's calls beyond spec section 7 (sessions, search, stop and resume, custom personas, /v1). */
export const chatOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/chat/providers',
    summary: 'The AI providers in the order they are tried',
    description: 'Each with its model and the state of its circuit breaker.',
    tag: 'Chat',
    auth: true,
    response: ChatProvidersResponse,
  },
  {
    method: 'get',
    path: '/api/chat/capabilities',
    summary: 'What chat can do on this server now',
    description:
      'Whether an AI provider is connected, images are seen, documents are answered by a model or quoted, and the ' +
      'OpenAI-compatible API’s tools and JSON replies have a provider.',
    tag: 'Chat',
    auth: false,
    response: ChatCapabilities,
  },
  {
    method: 'get',
    path: '/api/chat/sessions',
    summary: 'My chat sessions, newest first',
    description: 'One page at a time: pass `nextCursor` back as `cursor` for the next.',
    tag: 'Chat',
    auth: true,
    query: ChatPageQuery,
    response: SessionPage,
    example: {
      response: {
        sessions: [{ id: '665f1d409b1e8a3d4c2b1a12', personaId: 'nana', title: 'Weekend in Kumasi', createdAt: TIME }],
        nextCursor: null,
      },
    },
  },
  {
    method: 'get',
    path: '/api/chat/sessions/{sessionId}',
    summary: 'A session and one page of its messages',
    description:
      'The newest page first, each page oldest first; pass `nextCursor` back as `cursor` for older messages. Edited ' +
      'and regenerated messages make a tree: the messages listed are its current branch, each with its `version`.',
    tag: 'Chat',
    auth: true,
    params: sessionId,
    query: ChatPageQuery,
    response: SessionWithMessages,
    example: {
      response: {
        id: '665f1d409b1e8a3d4c2b1a12',
        personaId: 'nana',
        title: 'Weekend in Kumasi',
        createdAt: TIME,
        messages: [
          {
            id: '665f1d799b1e8a3d4c2b1a14',
            role: 'user',
            content: 'What should I see at Kejetia?',
            timestamp: TIME,
            type: 'text',
            status: 'complete',
            version: { index: 0, count: 1, siblingIds: ['665f1d799b1e8a3d4c2b1a14'] },
          },
          {
            id: '665f1d7a9b1e8a3d4c2b1a15',
            role: 'assistant',
            content: 'Kejetia Market is one of the largest markets in West Africa: start early, near the central gate.',
            timestamp: TIME,
            type: 'text',
            status: 'complete',
            provider: 'openai',
            model: 'gpt-4o-mini',
            version: { index: 0, count: 1, siblingIds: ['665f1d7a9b1e8a3d4c2b1a15'] },
          },
        ],
        nextCursor: null,
      },
    },
  },
  {
    method: 'patch',
    path: '/api/chat/sessions/{sessionId}',
    summary: 'Rename a session',
    tag: 'Chat',
    auth: true,
    params: sessionId,
    body: RenameSessionRequest,
    response: Session,
  },
  {
    method: 'delete',
    path: '/api/chat/sessions/{sessionId}',
    summary: 'Delete a session and its messages',
    tag: 'Chat',
    auth: true,
    params: sessionId,
    successStatus: 204,
    responseDescription: 'Deleted',
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/chat/sessions/{sessionId}/share',
    summary: 'Share a conversation as a read-only link',
    description: '201 the first time; after that, 200 and the same link, brought up to date.',
    tag: 'Chat',
    auth: true,
    params: sessionId,
    response: ConversationShare,
    successStatus: 201,
  },
  {
    method: 'get',
    path: '/api/chat/sessions/{sessionId}/share',
    summary: 'A conversation’s read-only link',
    tag: 'Chat',
    auth: true,
    params: sessionId,
    response: ConversationShare,
    errorNotes: { 404: 'No such session of mine, or it is not shared' },
  },
  {
    method: 'delete',
    path: '/api/chat/sessions/{sessionId}/share',
    summary: 'Stop sharing a conversation',
    description: 'Its link answers 404 from then on.',
    tag: 'Chat',
    auth: true,
    params: sessionId,
    successStatus: 204,
    responseDescription: 'No longer shared',
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/chat/shared/{token}',
    summary: 'A shared conversation, read-only',
    description: 'Without an account, as it was when last shared.',
    tag: 'Chat',
    auth: false,
    params: { token: ShareToken },
    response: SharedConversation,
  },
  {
    method: 'get',
    path: '/api/chat/search',
    summary: 'Search my messages (literal text, case-insensitive)',
    tag: 'Chat',
    auth: true,
    query: ChatSearchQuery,
    response: ChatSearchResults,
  },
  {
    method: 'post',
    path: '/api/chat/sessions/{sessionId}/messages/{messageId}/stop',
    summary: 'Stop a reply while it is being written',
    description: 'What was written is kept, marked stopped.',
    tag: 'Chat',
    auth: true,
    params: messageIds,
    response: StoredMessage,
    successStatus: 202,
  },
  {
    method: 'get',
    path: '/api/chat/sessions/{sessionId}/messages/{messageId}/stream',
    summary: 'Follow a reply being written, after a reload',
    description: 'As Server-Sent Events: meta, the text so far, the rest as it comes, done.',
    tag: 'Chat',
    auth: true,
    params: messageIds,
    successStatus: 200,
    responseDescription: 'text/event-stream: events meta, token {text}, done (the stored message), error {message}',
  },
  {
    method: 'post',
    path: '/api/chat/sessions/{sessionId}/messages/{messageId}/edit',
    summary: 'Edit one of my messages',
    description:
      'The new text is stored as a new version of it (the old branch is kept) and answered like a new message, ' +
      'whole (201) or streamed; an answer cannot be edited (400).',
    tag: 'Chat',
    auth: true,
    params: messageIds,
    body: EditMessageRequest,
    response: AssistantReply,
    successStatus: 201,
    stream: replyStream,
    errors: [403, 409, 429],
  },
  {
    method: 'post',
    path: '/api/chat/sessions/{sessionId}/messages/{messageId}/regenerate',
    summary: 'Regenerate an answer',
    description:
      'A new version of an answer to the same question, whole (201) or streamed; the earlier versions are kept. ' +
      'Only an answer can be regenerated (400).',
    tag: 'Chat',
    auth: true,
    params: messageIds,
    body: RegenerateRequest,
    bodyOptional: true,
    response: AssistantReply,
    successStatus: 201,
    stream: replyStream,
    errors: [403, 429],
  },
  {
    method: 'post',
    path: '/api/chat/sessions/{sessionId}/messages/{messageId}/select',
    summary: 'Show this version of a message',
    description:
      'The conversation continues from it, along the branch below it that was last shown; answers the session ' +
      'with the newest page of that branch (as GET, `limit` messages).',
    tag: 'Chat',
    auth: true,
    params: messageIds,
    query: SelectVersionQuery,
    response: SessionWithMessages,
    successStatus: 200,
  },
  {
    method: 'post',
    path: '/api/chat/attachments',
    summary: 'Upload an image or a document to send with messages',
    description:
      'Pro and Enterprise. An image (PNG, JPEG, WebP, GIF; at most 10 MB) or a document (PDF, DOCX, plain text, ' +
      'markdown; at most 20 MB): the file is the raw body, its type is read from its bytes.',
    tag: 'Chat',
    auth: true,
    query: UploadAttachmentQuery,
    body: z.string().openapi({ format: 'binary', description: "The file's bytes (any Content-Type)" }),
    bodyContentType: 'application/octet-stream',
    response: Attachment,
    successStatus: 201,
    // 422: past a processing limit (ATTACHMENT_PROCESSING_LIMITS); 503 (every operation's): the readers are busy.
    errors: [400, 403, 409, 413, 415, 422],
  },
  {
    method: 'get',
    path: '/api/chat/attachments/{id}',
    summary: 'One of my attachments',
    description: 'Its bytes, with its media type and file name.',
    tag: 'Chat',
    auth: true,
    params: { id: AttachmentId },
    successStatus: 200,
    responseDescription: 'The file (Content-Type: its media type; Content-Disposition: its name)',
  },
  {
    method: 'get',
    path: '/api/chat/attachments/{id}/thumbnail',
    summary: 'A small preview of one of my images',
    description: 'WebP, at most 256 pixels a side; 404 when it has none.',
    tag: 'Chat',
    auth: true,
    params: { id: AttachmentId },
    successStatus: 200,
    responseDescription: 'image/webp',
  },
  {
    method: 'delete',
    path: '/api/chat/attachments/{id}',
    summary: 'Delete one of my attachments',
    description: 'Messages that carried it keep its name only.',
    tag: 'Chat',
    auth: true,
    params: { id: AttachmentId },
    successStatus: 204,
    responseDescription: 'Deleted',
  },
  {
    method: 'post',
    path: '/api/personas',
    summary: 'Create a custom persona (Enterprise)',
    description: 'It answers in chat sessions and as a model of the OpenAI-compatible API, for its owner only.',
    tag: 'Chat',
    auth: true,
    body: CreatePersonaRequest,
    response: Persona,
    errors: [403, 409],
    errorNotes: { 403: 'Custom personas are part of the Enterprise plan' },
  },
  {
    method: 'patch',
    path: '/api/personas/{id}',
    summary: 'Edit one of my custom personas (Enterprise)',
    tag: 'Chat',
    auth: true,
    params: { id: ObjectIdString },
    body: UpdatePersonaRequest,
    response: Persona,
    errors: [403],
    errorNotes: { 403: 'Custom personas are part of the Enterprise plan' },
  },
  {
    method: 'delete',
    path: '/api/personas/{id}',
    summary: 'Delete one of my custom personas',
    description: 'Open on every plan, so that someone who left Enterprise can clean up.',
    tag: 'Chat',
    auth: true,
    params: { id: ObjectIdString },
    successStatus: 204,
    responseDescription: 'Deleted',
  },
  {
    method: 'get',
    path: '/v1/models',
    summary: 'The personas as models',
    description: 'Kasa’s personas and my custom ones, as OpenAI’s List models answers.',
    tag: 'OpenAI-compatible',
    auth: true,
    response: OpenAIModelList,
    example: { response: { object: 'list', data: [exampleModel] } },
  },
  {
    method: 'get',
    path: '/v1/models/{id}',
    summary: 'One persona as a model',
    description: 'One of Kasa’s personas or my custom ones, as OpenAI’s Retrieve model answers.',
    tag: 'OpenAI-compatible',
    auth: true,
    params: { id: z.string().min(1).max(64) },
    response: OpenAIModel,
    example: { response: exampleModel },
  },
  {
    method: 'post',
    path: '/v1/chat/completions',
    summary: 'Create a chat completion',
    description:
      'OpenAI’s Chat Completions with a persona as the model: tools (function calling) and response_format (JSON ' +
      'mode, structured output); with `stream: true`, OpenAI’s Server-Sent Events of chat.completion.chunk objects.',
    tag: 'OpenAI-compatible',
    auth: true,
    body: OpenAIChatCompletionRequest,
    successStatus: 200,
    response: OpenAIChatCompletion,
    stream: {
      status: 200,
      contentType: 'text/event-stream',
      description:
        'With stream: true, Server-Sent Events: each data: line holds one chat.completion.chunk (tool calls as ' +
        'delta.tool_calls: index, id, type and function.name first, then function.arguments pieces with the same ' +
        'index; finish_reason "tool_calls"), then data: [DONE]. A failure after the first chunk arrives as a data: ' +
        'line with an error object',
      schema: OpenAIChatCompletionChunk,
    },
    errors: [404, 429, 502],
    errorNotes: {
      404: 'The model is not a persona of Kasa’s or one of mine',
      429: 'Ten replies of this person are being written',
    },
    example: {
      request: {
        model: 'kasa',
        messages: [
          { role: 'system', content: 'Answer in one sentence.' },
          { role: 'user', content: 'Akwaaba! What can you do?' },
        ],
        temperature: 0.7,
      },
      response: {
        id: 'chatcmpl-3f9a1c0d2b7e4f6a8c5d1e0f9b2a7c4d',
        object: 'chat.completion',
        created: 1773480600,
        model: 'kasa',
        system_fingerprint: 'fp_kasa',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content:
                'I answer questions, translate and read replies aloud in many languages, Twi and Hausa among them.',
              refusal: null,
            },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 24, completion_tokens: 22, total_tokens: 46 },
      },
    },
  },
  {
    method: 'post',
    path: '/v1/embeddings',
    summary: 'Create embeddings',
    description:
      'OpenAI’s Embeddings: vectors from a connected provider that has them (model `kasa-embedding`: each ' +
      'provider’s default, in chain order); 400 when none is connected.',
    tag: 'OpenAI-compatible',
    auth: true,
    body: OpenAIEmbeddingRequest,
    successStatus: 200,
    response: OpenAIEmbeddingList,
    example: {
      request: { model: KASA_EMBEDDING_MODEL, input: ['Akwaaba', 'Welcome'] },
      response: {
        object: 'list',
        data: [
          { object: 'embedding', index: 0, embedding: [0.0123, -0.0456, 0.0789] },
          { object: 'embedding', index: 1, embedding: [0.0234, -0.0345, 0.0678] },
        ],
        model: 'text-embedding-3-small',
        usage: { prompt_tokens: 5, total_tokens: 5 },
      },
    },
  },
];
