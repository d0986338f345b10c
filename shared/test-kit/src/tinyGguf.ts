import { writeFile } from 'node:fs/promises';

/** The shape of the tiny model; every field has a small default. */
export interface TinyGgufOptions {
  /** Seeds the weights: the same options give the same bytes. */
  seed?: number;
  /** The embedding width (a multiple of `heads`). Default 32. */
  embedding?: number;
  /** Transformer blocks. Default 1. */
  layers?: number;
  /** Attention heads (and key/value heads). Default 4. */
  heads?: number;
  /** The feed-forward width. Default 64. */
  feedForward?: number;
  /** The context length it claims to be trained on. Default 2048. */
  contextLength?: number;
  /** Its Jinja chat template; `false` leaves it out (a model without one). Default: ChatML. */
  chatTemplate?: string | false;
  /** `general.name`. Default 'kasa-tiny'. */
  name?: string;
}

/** The ChatML template many instruct models ship (Qwen's among them), in its plainest form. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + " +
  "'\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

// GGUF's value types (ggml docs/gguf.md, `gguf_metadata_value_type`).
const UINT32 = 4;
const INT32 = 5;
const FLOAT32 = 6;
const BOOL = 7;
const STRING = 8;
const ARRAY = 9;
// llama.cpp's token types.
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const BYTE = 6;
const ALIGNMENT = 32;

type Value =
  | { type: typeof UINT32 | typeof FLOAT32; value: number }
  | { type: typeof BOOL; value: boolean }
  | { type: typeof STRING; value: string }
  | { type: typeof ARRAY; of: typeof STRING; values: string[] }
  | { type: typeof ARRAY; of: typeof FLOAT32 | typeof INT32; values: number[] };

/** A little-endian byte writer that grows as needed. */
class Bytes {
  private parts: Buffer[] = [];
  length = 0;

  push(buffer: Buffer): void {
    this.parts.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }
  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }
  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }
  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }
  string(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(): void {
    const rest = this.length % ALIGNMENT;
    if (rest) this.push(Buffer.alloc(ALIGNMENT - rest));
  }
  value(value: Value): void {
    this.u32(value.type);
    switch (value.type) {
      case UINT32:
        return this.u32(value.value);
      case FLOAT32:
        return this.f32(value.value);
      case BOOL:
        return this.push(Buffer.from([value.value ? 1 : 0]));
      case STRING:
        return this.string(value.value);
      case ARRAY:
        this.u32(value.of);
        this.u64(value.values.length);
        if (value.of === STRING) for (const item of value.values) this.string(item);
        else if (value.of === INT32) for (const item of value.values) this.i32(item);
        else for (const item of value.values) this.f32(item);
        return;
    }
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** mulberry32: a small seeded generator, so that the weights are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The vocabulary: SentencePiece's specials, ChatML's two control tokens, the 256 byte tokens (so that any text
 * tokenizes, by bytes where no piece fits) and a few hundred pieces of text.
 */
function vocabulary(): { tokens: string[]; scores: number[]; types: number[]; specials: number } {
  const tokens = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
  const types = [UNKNOWN, CONTROL, CONTROL, CONTROL, CONTROL];
  const specials = tokens.length;
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(BYTE);
  }
  const pieces = new Set<string>(['▁']);
  for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,!?:;\'"-()') pieces.add(c);
  for (const c of 'abcdefghijklmnopqrstuvwxyz') pieces.add(`▁${c}`);
  const words =
    'the and is to of in it you that was for on are with as be at this have from or one had by word but not ' +
    'what all were we when your can said there use an each which she do how their if will up other about out ' +
    'hello kasa model local reply akwaaba bonjour habari sannu ẹ'.split(' ');
  for (const word of words) pieces.add(`▁${word}`);
  const scores = tokens.map(() => 0);
  for (const piece of pieces) {
    tokens.push(piece);
    types.push(NORMAL);
    // SentencePiece merges the best-scored pair first: longer pieces win.
    scores.push([...piece].length - 1 - tokens.length / 1e4);
  }
  return { tokens, scores, types, specials };
}

/**
 * A valid GGUF v3 file of a tiny `llama` model with seeded random F32 weights (ggml's docs/gguf.md; the tensor names
 * and hyper-parameters llama.cpp reads for the llama architecture). It loads in llama.cpp and generates gibberish,
 * under 200 KB, quickly. Its special and control tokens are never generated: the first embedding dimension is a
 * constant that passes through every block untouched, and their rows of the output matrix weigh it strongly
 * negative, so a generation runs until its token limit or its stop (byte tokens' rows weigh it a little negative).
 */
export function tinyGguf(options: TinyGgufOptions = {}): Buffer {
  const n = {
    embd: options.embedding ?? 32,
    layers: options.layers ?? 1,
    heads: options.heads ?? 4,
    ff: options.feedForward ?? 64,
    ctx: options.contextLength ?? 2048,
  };
  if (n.embd % n.heads !== 0) throw new Error('embedding must be a multiple of heads');
  const rand = random(options.seed ?? 7);
  const { tokens, scores, types, specials } = vocabulary();
  const nVocab = tokens.length;
  const headDim = n.embd / n.heads;

  const metadata: [string, Value][] = [
    ['general.architecture', { type: STRING, value: 'llama' }],
    ['general.name', { type: STRING, value: options.name ?? 'kasa-tiny' }],
    ['general.alignment', { type: UINT32, value: ALIGNMENT }],
    ['general.file_type', { type: UINT32, value: 0 }], // all F32
    ['llama.context_length', { type: UINT32, value: n.ctx }],
    ['llama.embedding_length', { type: UINT32, value: n.embd }],
    ['llama.block_count', { type: UINT32, value: n.layers }],
    ['llama.feed_forward_length', { type: UINT32, value: n.ff }],
    ['llama.rope.dimension_count', { type: UINT32, value: headDim }],
    ['llama.attention.head_count', { type: UINT32, value: n.heads }],
    ['llama.attention.head_count_kv', { type: UINT32, value: n.heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: FLOAT32, value: 1e-5 }],
    ['llama.rope.freq_base', { type: FLOAT32, value: 10000 }],
    ['llama.vocab_size', { type: UINT32, value: nVocab }],
    ['tokenizer.ggml.model', { type: STRING, value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: ARRAY, of: STRING, values: tokens }],
    ['tokenizer.ggml.scores', { type: ARRAY, of: FLOAT32, values: scores }],
    ['tokenizer.ggml.token_type', { type: ARRAY, of: INT32, values: types }],
    ['tokenizer.ggml.unknown_token_id', { type: UINT32, value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: UINT32, value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: UINT32, value: 2 }],
    ['tokenizer.ggml.add_bos_token', { type: BOOL, value: true }],
    ['tokenizer.ggml.add_eos_token', { type: BOOL, value: false }],
  ];
  const template = options.chatTemplate ?? CHATML_TEMPLATE;
  if (template !== false) metadata.push(['tokenizer.chat_template', { type: STRING, value: template }]);

  // Tensors, ggml order: dims[0] is the length of a row. `fill` gives element (row, column).
  type Fill = (row: number, column: number) => number;
  const uniform =
    (scale: number): Fill =>
    () =>
      (rand() * 2 - 1) * scale;
  const ones: Fill = () => 1;
  /** A projection into the residual stream that leaves dimension 0 (the constant) alone. */
  const intoResidual = (scale: number): Fill => {
    const fill = uniform(scale);
    return (row, column) => (row === 0 ? 0 : fill(row, column));
  };
  const tensors: { name: string; dims: [number] | [number, number]; fill: Fill }[] = [];
  const embeddings = uniform(1);
  tensors.push({ name: 'token_embd.weight', dims: [n.embd, nVocab], fill: (r, c) => (c === 0 ? 1 : embeddings(r, c)) });
  for (let layer = 0; layer < n.layers; layer++) {
    const blk = `blk.${layer}`;
    const scale = 1 / Math.sqrt(n.embd);
    tensors.push(
      { name: `${blk}.attn_norm.weight`, dims: [n.embd], fill: ones },
      { name: `${blk}.attn_q.weight`, dims: [n.embd, n.embd], fill: uniform(scale) },
      { name: `${blk}.attn_k.weight`, dims: [n.embd, n.embd], fill: uniform(scale) },
      { name: `${blk}.attn_v.weight`, dims: [n.embd, n.embd], fill: uniform(scale) },
      { name: `${blk}.attn_output.weight`, dims: [n.embd, n.embd], fill: intoResidual(scale) },
      { name: `${blk}.ffn_norm.weight`, dims: [n.embd], fill: ones },
      { name: `${blk}.ffn_gate.weight`, dims: [n.embd, n.ff], fill: uniform(scale) },
      { name: `${blk}.ffn_up.weight`, dims: [n.embd, n.ff], fill: uniform(scale) },
      { name: `${blk}.ffn_down.weight`, dims: [n.ff, n.embd], fill: intoResidual(1 / Math.sqrt(n.ff)) },
    );
  }
  tensors.push({ name: 'output_norm.weight', dims: [n.embd], fill: ones });
  const output = uniform(2 / Math.sqrt(n.embd));
  tensors.push({
    name: 'output.weight',
    dims: [n.embd, nVocab],
    fill: (row, column) => {
      if (row < specials) return column === 0 ? -40 : 0;
      // Byte tokens only now and then, so that what it writes is mostly whole pieces of text.
      if (column === 0) return row < specials + 256 ? -3 : 0;
      return output(row, column);
    },
  });

  const out = new Bytes();
  out.push(Buffer.from('GGUF', 'latin1'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    out.value(value);
  }
  const data = tensors.map(({ dims, fill }) => {
    const [columns, rows = 1] = dims;
    const values = new Float32Array(columns * rows);
    for (let row = 0; row < rows; row++)
      for (let column = 0; column < columns; column++) values[row * columns + column] = fill(row, column);
    return Buffer.from(values.buffer);
  });
  let offset = 0;
  tensors.forEach(({ name, dims }, i) => {
    out.string(name);
    out.u32(dims.length);
    for (const dim of dims) out.u64(dim);
    out.u32(0); // GGML_TYPE_F32
    out.u64(offset);
    offset += Math.ceil(data[i]!.length / ALIGNMENT) * ALIGNMENT;
  });
  out.pad();
  for (const bytes of data) {
    out.push(bytes);
    out.pad();
  }
  return out.toBuffer();
}

/** Writes `tinyGguf(options)` to `path` and answers the path. */
export async function writeTinyGguf(path: string, options: TinyGgufOptions = {}): Promise<string> {
  await writeFile(path, tinyGguf(options));
  return path;
}
