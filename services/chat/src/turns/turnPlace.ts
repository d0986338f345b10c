import type { CreateMessageRequest, EditMessageRequest, RegenerateRequest } from '@kasa/contracts';
import { InputError, NotFoundError } from '@kasa/service-kit';
import { Types } from 'mongoose';
import { HISTORY_SCAN_LIMIT, toPromptHistory, type ConversationStore } from '../conversations/conversationStore';
import type { MessageDocument } from '../conversations/messageModel';
import type { SessionDocument } from '../conversations/sessionModel';
import type { PromptMessage } from '../providers/chatProvider';

/**
 * What a turn answers. Every kind stores a reply placeholder and streams the reply the same way; they differ in where
 * the turn hangs in the conversation (see ConversationTree) and so in the history its prompt is made of.
 */
export type TurnRequest =
  /** A new message after the last message of the current branch. */
  | { kind: 'send'; input: CreateMessageRequest }
  /** A new version of one of my messages (`messageId`), in its place: it follows what that one followed. */
  | { kind: 'edit'; messageId: string; input: EditMessageRequest }
  /** A new version of an answer (`messageId`) to the same question; no message of mine is stored. */
  | { kind: 'regenerate'; messageId: string; input: RegenerateRequest };

/** Where a turn hangs and what its prompt reads. */
export interface TurnPlace {
  /** The message the new user message follows (null: it is a first message). Unused when `questionId` is set. */
  parentId: string | null;
  /** The history before the question, along the branch the turn continues, oldest first. */
  before: PromptMessage[];
  /** The question answered, with the ids of its attachments. */
  asked: {
    content: string;
    type: MessageDocument['type'];
    language?: string;
    attachmentIds: string[];
    /** The ids come from the stored message (an edit that left them out, a regenerated answer). */
    inherited?: boolean;
  };
  /** The stored question a regenerated answer answers; a new question is stored otherwise. */
  questionId?: string;
  /** The versions the reply joins (a regenerated answer's earlier versions). */
  replyVersions?: string[];
  /** The turn makes a second version of a message: the conversation is read as a tree from now on. */
  branches: boolean;
}

/** Where a turn hangs in the conversation, and the history its prompt reads (see TurnRequest). 404/400 first. */
export async function placeTurn(
  store: ConversationStore,
  session: SessionDocument,
  request: TurnRequest,
): Promise<TurnPlace> {
  if (request.kind === 'send') {
    const { history, leafId } = await store.branchEnd(session);
    const { content, type, attachmentIds = [] } = request.input;
    return { parentId: leafId, before: history, asked: { content, type, attachmentIds }, branches: false };
  }
  const tree = await store.queued(() => store.tree(session));
  const id = new Types.ObjectId(request.messageId).toString();
  const target = tree.node(id);
  if (!target) throw new NotFoundError('Message not found');
  if (request.kind === 'edit') {
    if (target.role !== 'user')
      throw new InputError(
        'Only your own messages can be edited, and this one is an answer: regenerate it for another version.',
        [{ path: 'messageId', message: 'an answer cannot be edited' }],
      );
    const parentId = tree.parentOf(id);
    const before = parentId ? await store.historyAlong(session, tree.pathTo(parentId)) : [];
    const { content, type } = request.input;
    // Left out, the edited message's attachments stay with the new version; `[]` drops them.
    const inherited = request.input.attachmentIds === undefined;
    const attachmentIds = request.input.attachmentIds ?? (await store.attachmentIdsOf(session, id));
    return { parentId, before, asked: { content, type, attachmentIds, inherited }, branches: true };
  }
  if (target.role !== 'assistant')
    throw new InputError(
      'Only an answer can be regenerated, and this one is your message: edit it for another version.',
      [{ path: 'messageId', message: 'a message of yours cannot be regenerated' }],
    );
  const questionId = tree.parentOf(id);
  if (!questionId || tree.node(questionId)?.role !== 'user')
    throw new InputError('This answer follows no message of yours, so there is no question to answer again.', [
      { path: 'messageId', message: 'no question to answer again' },
    ]);
  const path = tree.pathTo(questionId).slice(-(HISTORY_SCAN_LIMIT + 1));
  const docs = await store.queued(() => store.messagesById(session, path));
  const question = docs.at(-1);
  if (question?._id.toString() !== questionId) throw new NotFoundError('Message not found');
  return {
    parentId: tree.parentOf(questionId),
    before: toPromptHistory(docs.slice(0, -1)),
    asked: {
      content: question.content,
      type: question.type,
      ...(question.language ? { language: question.language } : {}),
      attachmentIds: (question.attachments ?? []).map((a) => a.id),
      inherited: true,
    },
    questionId,
    replyVersions: tree.versionsOf(id),
    branches: true,
  };
}
