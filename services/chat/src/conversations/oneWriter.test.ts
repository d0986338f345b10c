import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * ConversationStore is the one writer of the `messages` and `sessions` collections. This test reads the service's
 * source and fails when another module gets hold of either collection (the only way to write it) or, where
 * mongoose is imported, calls a write method on something named after it.
 */

const SRC = join(__dirname, '..');
/** The one writer, and the files that define the models it writes. */
const STORE = 'conversations/conversationStore.ts';
const ALLOWED = new Set([STORE, 'conversations/messageModel.ts', 'conversations/sessionModel.ts']);

/** Ways to get hold of a collection: its model function, mongoose's registry, the driver's collection, its type. */
const HANDLES: RegExp[] = [
  /(?<![\w/$])(messageModel|sessionModel)\b/,
  /\bmodels\s*(\.\s*(Message|Session)\b|\[\s*['"`](Message|Session)['"`])/,
  /\.model\s*(<[^>]*>)?\s*\(\s*['"`](Message|Session)['"`]/,
  /\.collection\s*\(\s*['"`](messages|sessions)['"`]/,
  /\b(Model|HydratedDocument|Collection)\s*<\s*(MessageDocument|SessionDocument)\b/,
];

/** Mongoose's (and the driver's) methods that create, change or delete documents. */
const WRITE_CALL =
  /\.\s*(create|insertMany|insertOne|updateOne|updateMany|replaceOne|findOneAndUpdate|findByIdAndUpdate|findOneAndReplace|findOneAndDelete|findByIdAndDelete|findOneAndRemove|deleteOne|deleteMany|bulkWrite|save)\s*\(/g;
/** A receiver named after a collection: `this.messages`, `messageDocs`, `session` (a document's `save`)... */
const COLLECTION_NAME = /^(message|session)s?(docs?|model|collection)?$/i;

/** Drops comments: a comment that names a model or a write is not a finding. */
const withoutComments = (code: string): string =>
  code.replace(/(^|\s)\/\*[\s\S]*?\*\//g, '$1').replace(/(^|[^:])\/\/.*$/gm, '$1');

const lineOf = (code: string, index: number): number => code.slice(0, index).split('\n').length;

/** What a source file does that only the store may: each finding as `line: text`. */
function findWrites(source: string): string[] {
  const code = withoutComments(source);
  const found: string[] = [];
  code.split('\n').forEach((line, i) => {
    if (HANDLES.some((pattern) => pattern.test(line))) found.push(`${i + 1}: ${line.trim()}`);
  });
  // Write calls are looked for where mongoose is imported, where models and documents are at hand (a router's
  // `sessions.create(...)` is the session service's, not the collection's).
  if (!/from\s+['"]mongoose['"]/.test(code)) return found;
  for (const match of code.matchAll(WRITE_CALL)) {
    // The receiver: the name chain right before the call, across line breaks (`this.messages\n  .updateOne(`).
    const before = code.slice(0, match.index).trimEnd();
    const receiver = /([\w$]+(?:\s*\.\s*[\w$]+)*)$/.exec(before)?.[1] ?? '';
    const last = receiver.split('.').at(-1)!.trim();
    if (COLLECTION_NAME.test(last))
      found.push(`${lineOf(code, match.index)}: ${receiver.replace(/\s+/g, '')}.${match[1]}(`);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

const relativeToSrc = (path: string): string => relative(SRC, path).split(sep).join('/');

describe('the messages and sessions collections', () => {
  it('are written by ConversationStore alone', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(20);
    const offenders = files
      .filter((path) => !ALLOWED.has(relativeToSrc(path)))
      .flatMap((path) => findWrites(readFileSync(path, 'utf8')).map((finding) => `${relativeToSrc(path)}:${finding}`));
    expect(offenders).toEqual([]);
  });

  it('sees the writes ConversationStore makes (the scan reads real code)', () => {
    const store = findWrites(readFileSync(join(SRC, STORE), 'utf8')).join('\n');
    for (const write of ['sessions.create(', 'messages.insertMany(', 'messages.updateOne(', 'messages.deleteMany('])
      expect(store).toContain(write);
    expect(store).toMatch(/messageModel\(/);
  });

  it('flags every way another module could write them', () => {
    const samples = [
      "import { Types } from 'mongoose';\nawait this.messages\n  .updateOne({ _id }, { $set: { content } })",
      "import type { Model } from 'mongoose';\nawait this.deps.sessionDocs.findOneAndUpdate({ _id }, { $set: { title } })",
      "import { Types } from 'mongoose';\nawait session.save();",
      'const docs = messageModel(db);',
      'const model = connection.models.Message;',
      "const raw = db.collection('messages');",
      "db.model<SessionDocument>('Session', schema)",
      'constructor(private readonly m: Model<MessageDocument>) {}',
    ];
    for (const sample of samples) expect(findWrites(sample)).not.toEqual([]);
  });

  it('leaves alone reads, other collections and comments', () => {
    const samples = [
      "import { Types } from 'mongoose';\nawait this.deps.shares.deleteMany({ sessionId, ownerId });",
      'const session = await sessions.create(who, input, requestId);',
      "import { toMessage } from '../conversations/messageModel';",
      'await store.openTurn(turn); await store.createSession(ownerId, personaId, title);',
      '// the store calls messageModel(db) and this.messages.updateOne(...)',
      'const doc = await this.deps.store.reply(session, messageId);',
    ];
    for (const sample of samples) expect(findWrites(sample)).toEqual([]);
  });
});
