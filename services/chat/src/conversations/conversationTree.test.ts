import { ConversationTree, type TreeNode } from './conversationTree';

/** A message of a test tree: `id` sorts in storing order; `at` is when it was created or last chosen. */
function node(id: string, parentId: string | null | undefined, at: number, role?: TreeNode['role']): TreeNode {
  return { id, parentId, role: role ?? (id.startsWith('u') ? 'user' : 'assistant'), status: 'complete', shownAt: at };
}

describe('ConversationTree', () => {
  it('reads messages stored before messages had parents as one line, in the order they were stored', () => {
    const tree = new ConversationTree([
      node('a1-u', undefined, 1, 'user'),
      node('a2-a', undefined, 2, 'assistant'),
      node('a3-u', undefined, 3, 'user'),
      node('a4-a', undefined, 4, 'assistant'),
    ]);
    expect(tree.branch()).toEqual(['a1-u', 'a2-a', 'a3-u', 'a4-a']);
    expect(tree.parentOf('a1-u')).toBeNull();
    expect(tree.parentOf('a3-u')).toBe('a2-a');
    expect(tree.version('a3-u')).toEqual({ index: 0, count: 1, siblingIds: ['a3-u'] });
  });

  it('shows an edit in place of the message it replaces, with what follows it, and keeps the old branch', () => {
    // u1 → a1 → u2 → a2, then u2 edited into u2e → a2e.
    const tree = new ConversationTree([
      node('u1', null, 1),
      node('v1', 'u1', 2),
      node('u2', 'v1', 3),
      node('v2', 'u2', 4),
      node('u2e', 'v1', 5),
      node('v2e', 'u2e', 6),
    ]);
    expect(tree.branch()).toEqual(['u1', 'v1', 'u2e', 'v2e']);
    expect(tree.version('u2e')).toEqual({ index: 1, count: 2, siblingIds: ['u2', 'u2e'] });
    expect(tree.version('u2')).toEqual({ index: 0, count: 2, siblingIds: ['u2', 'u2e'] });
    expect(tree.branchThrough('u2')).toEqual(['u1', 'v1', 'u2', 'v2']);
    expect(tree.pathTo('v2e')).toEqual(['u1', 'v1', 'u2e', 'v2e']);
  });

  it('counts regenerated answers as versions of one answer, the newest shown', () => {
    const tree = new ConversationTree([
      node('u1', null, 1),
      node('v1', 'u1', 2),
      node('v1b', 'u1', 3),
      node('v1c', 'u1', 4),
    ]);
    expect(tree.branch()).toEqual(['u1', 'v1c']);
    expect(tree.version('v1c')).toEqual({ index: 2, count: 3, siblingIds: ['v1', 'v1b', 'v1c'] });
  });

  it('follows a choice made later than a newer version, down to the leaf last shown below it', () => {
    // u1 has answers v1 and v1b; the conversation went on below v1 (u2 → v2), then v1b was regenerated, then v1
    // was chosen again: the branch is v1's, down to v2.
    const tree = new ConversationTree([
      node('u1', null, 1),
      node('v1', 'u1', 10),
      node('u2', 'v1', 3),
      node('v2', 'u2', 4),
      node('v1b', 'u1', 5),
    ]);
    expect(tree.branch()).toEqual(['u1', 'v1', 'u2', 'v2']);
    expect(tree.isChosen('v1b')).toBe(false);
    expect(tree.leafBelow('v1')).toBe('v2');
    expect(tree.leafBelow('v1b')).toBe('v1b');
  });

  it('gives a choice a time later than every version, so that storing it shows that version', () => {
    const tree = new ConversationTree([node('u1', null, 1), node('v1', 'u1', 2), node('v1b', 'u1', 5_000)]);
    // The clock of this replica is behind the time the newest version was stored: the choice still wins.
    const at = tree.shownAtToChoose('v1', 1_000);
    expect(at).toBe(5_001);
    tree.markShown('v1', at);
    expect(tree.branch()).toEqual(['u1', 'v1']);
    expect(tree.shownAtToChoose('v1b', 9_000)).toBe(9_000);
  });

  it('lists the messages on the path to a version that are not shown, so that choosing it shows them all', () => {
    const tree = new ConversationTree([
      node('u1', null, 1),
      node('v1', 'u1', 2),
      node('u2', 'v1', 3),
      node('v2', 'u2', 4),
      node('u2e', 'v1', 5),
      node('v2e', 'u2e', 6),
      node('v2b', 'u2', 7),
    ]);
    // v2b answers the question that was replaced by its edit: choosing it brings back u2 too.
    expect(tree.unchosenOnPathTo('v2b')).toEqual(['u2']);
    expect(tree.unchosenOnPathTo('v2')).toEqual(['u2', 'v2']);
    expect(tree.unchosenOnPathTo('v2e')).toEqual([]);
  });

  it('continues a conversation stored before messages had parents with messages that name theirs', () => {
    // Two old messages, then an edit of the first one's answer's question (a new first message) and a new turn
    // below the old answer.
    const tree = new ConversationTree([
      node('o1', undefined, 1, 'user'),
      node('o2', undefined, 2, 'assistant'),
      node('u3', 'o2', 3),
      node('v3', 'u3', 4),
      node('u1e', null, 5),
      node('v1e', 'u1e', 6),
    ]);
    expect(tree.branch()).toEqual(['u1e', 'v1e']);
    expect(tree.version('o1')).toEqual({ index: 0, count: 2, siblingIds: ['o1', 'u1e'] });
    expect(tree.branchThrough('o1')).toEqual(['o1', 'o2', 'u3', 'v3']);
  });

  it('is empty for a conversation without messages, and knows nothing of unknown ids', () => {
    const tree = new ConversationTree([]);
    expect(tree.branch()).toEqual([]);
    expect(tree.pathTo('nope')).toEqual([]);
    expect(tree.branchThrough('nope')).toEqual([]);
    expect(tree.chosenUnder(null)).toBeUndefined();
    expect(tree.has('nope')).toBe(false);
  });
});
