import type { MessageStatus, MessageVersion } from '@kasa/contracts';

/** What the tree knows of a message: where it hangs and when it was last shown, never its text. */
export interface TreeNode {
  id: string;
  /**
   * The message it follows: `null` for a conversation's first message. `undefined` for a message stored before
   * messages had parents: it follows the message stored just before it (those conversations were one line).
   */
  parentId: string | null | undefined;
  role: 'user' | 'assistant';
  status: MessageStatus;
  /** When it was last chosen among its versions, or else created (milliseconds). */
  shownAt: number;
}

/** The key of the first messages' parent (a conversation may have several first messages: edits of the first). */
const ROOT = '';

/**
 * A conversation as a tree: each message follows one message, and the messages that follow the same one are versions
 * of each other (an edited question and the question it replaced; every regenerated answer to one question). Under
 * each message the version shown is the one chosen (or created) last, so the current branch — what the conversation
 * shows, and what a reply's prompt is made of — runs from the first message down through those. Built from the
 * messages in the order they were stored; pure, so that every rule here is tested without a database.
 */
export class ConversationTree {
  private readonly nodes = new Map<string, TreeNode>();
  private readonly parents = new Map<string, string>();
  private readonly children = new Map<string, string[]>();

  /** `nodes` in the order they were stored (ascending ids): a message always comes after the one it follows. */
  constructor(nodes: Iterable<TreeNode>) {
    let previous = ROOT;
    for (const node of nodes) {
      const parent = node.parentId === undefined ? previous : (node.parentId ?? ROOT);
      this.nodes.set(node.id, node);
      this.parents.set(node.id, parent);
      const siblings = this.children.get(parent);
      if (siblings) siblings.push(node.id);
      else this.children.set(parent, [node.id]);
      previous = node.id;
    }
  }

  get size(): number {
    return this.nodes.size;
  }

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  node(id: string): TreeNode | undefined {
    return this.nodes.get(id);
  }

  /** The message `id` follows; null for a first message (or an unknown id). */
  parentOf(id: string): string | null {
    const parent = this.parents.get(id);
    return parent === undefined || parent === ROOT ? null : parent;
  }

  /** The versions of `id`, itself included, oldest first. */
  versionsOf(id: string): string[] {
    const parent = this.parents.get(id);
    return parent === undefined ? [] : (this.children.get(parent) ?? []);
  }

  /** Where `id` stands among its versions. */
  version(id: string): MessageVersion {
    const siblingIds = this.versionsOf(id);
    return { index: Math.max(0, siblingIds.indexOf(id)), count: Math.max(1, siblingIds.length), siblingIds };
  }

  /** The version shown under `parent` (null: among the first messages): the one chosen or created last. */
  chosenUnder(parent: string | null): string | undefined {
    let chosen: TreeNode | undefined;
    for (const id of this.children.get(parent ?? ROOT) ?? []) {
      const node = this.nodes.get(id)!;
      // Ties go to the later message (ids grow with time).
      if (!chosen || node.shownAt >= chosen.shownAt) chosen = node;
    }
    return chosen?.id;
  }

  /** Whether `id` is the version shown among its versions. */
  isChosen(id: string): boolean {
    return this.has(id) && this.chosenUnder(this.parentOf(id)) === id;
  }

  /** The last message of the branch below `id` that was last shown (`id` itself when nothing follows it). */
  leafBelow(id: string): string {
    let leaf = id;
    for (let next = this.chosenUnder(leaf); next !== undefined; next = this.chosenUnder(leaf)) leaf = next;
    return leaf;
  }

  /** The messages from the first one down to `id`, in order (empty for an unknown id). */
  pathTo(id: string): string[] {
    const path: string[] = [];
    for (let at: string | null = this.has(id) ? id : null; at !== null; at = this.parentOf(at)) {
      path.push(at);
      // A parent never comes after its child, so a walk longer than the tree is impossible unless data is broken.
      if (path.length > this.nodes.size) break;
    }
    return path.reverse();
  }

  /** The current branch: from the first message down through the versions shown, in order. */
  branch(): string[] {
    const first = this.chosenUnder(null);
    return first === undefined ? [] : this.pathTo(this.leafBelow(first));
  }

  /** The branch that choosing `id` shows: the messages down to it, then the branch below it that was last shown. */
  branchThrough(id: string): string[] {
    return this.has(id) ? this.pathTo(this.leafBelow(id)) : [];
  }

  /**
   * The messages of the path to `id` that are not the version shown among theirs: choosing `id` chooses them all
   * (usually `id` alone, whose versions' arrows were used).
   */
  unchosenOnPathTo(id: string): string[] {
    return this.pathTo(id).filter((at) => !this.isChosen(at));
  }

  /** A time that makes a message chosen among its versions when it is stored as its `selectedAt`. */
  shownAtToChoose(id: string, now: number): number {
    const latest = Math.max(...this.versionsOf(id).map((sibling) => this.nodes.get(sibling)!.shownAt));
    return Math.max(now, latest + 1);
  }

  /** Records that `id` was chosen at `shownAt` (after storing it), so that the tree shows the new branch. */
  markShown(id: string, shownAt: number): void {
    const node = this.nodes.get(id);
    if (node) this.nodes.set(id, { ...node, shownAt });
  }
}
