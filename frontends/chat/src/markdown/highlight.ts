/**
 * Syntax highlighting of fenced code: highlight.js's core and each language's grammar are chunks of their own,
 * loaded when a reply first shows code in that language. The result is a tree of tokens (text and `hljs-*`
 * classes), rendered as React elements: never an HTML string.
 */
import type { HLJSApi, LanguageFn } from 'highlight.js';

/** A highlighted piece of code: text, or a token with its highlight.js classes around more pieces. */
export type CodeToken = string | { className: string; children: CodeToken[] };

type Loader = () => Promise<{ default: LanguageFn }>;

/**
 * The grammars offered, by highlight.js's file name, each with the names a fence may give it (besides that one).
 * Each is its own chunk, named after it. A language missing here is shown as plain text.
 */
const GRAMMARS: Record<string, { aliases: string[]; load: Loader }> = {
  bash: {
    aliases: ['sh', 'zsh'],
    load: () => import(/* webpackChunkName: "hljs-bash" */ 'highlight.js/lib/languages/bash'),
  },
  c: { aliases: ['h'], load: () => import(/* webpackChunkName: "hljs-c" */ 'highlight.js/lib/languages/c') },
  cpp: {
    aliases: ['c++', 'cc', 'cxx', 'hpp', 'hxx'],
    load: () => import(/* webpackChunkName: "hljs-cpp" */ 'highlight.js/lib/languages/cpp'),
  },
  csharp: {
    aliases: ['cs', 'c#'],
    load: () => import(/* webpackChunkName: "hljs-csharp" */ 'highlight.js/lib/languages/csharp'),
  },
  css: { aliases: [], load: () => import(/* webpackChunkName: "hljs-css" */ 'highlight.js/lib/languages/css') },
  dart: { aliases: [], load: () => import(/* webpackChunkName: "hljs-dart" */ 'highlight.js/lib/languages/dart') },
  diff: {
    aliases: ['patch'],
    load: () => import(/* webpackChunkName: "hljs-diff" */ 'highlight.js/lib/languages/diff'),
  },
  dockerfile: {
    aliases: ['docker'],
    load: () => import(/* webpackChunkName: "hljs-dockerfile" */ 'highlight.js/lib/languages/dockerfile'),
  },
  elixir: {
    aliases: ['ex', 'exs'],
    load: () => import(/* webpackChunkName: "hljs-elixir" */ 'highlight.js/lib/languages/elixir'),
  },
  go: { aliases: ['golang'], load: () => import(/* webpackChunkName: "hljs-go" */ 'highlight.js/lib/languages/go') },
  graphql: {
    aliases: ['gql'],
    load: () => import(/* webpackChunkName: "hljs-graphql" */ 'highlight.js/lib/languages/graphql'),
  },
  haskell: {
    aliases: ['hs'],
    load: () => import(/* webpackChunkName: "hljs-haskell" */ 'highlight.js/lib/languages/haskell'),
  },
  ini: {
    aliases: ['toml', 'cfg'],
    load: () => import(/* webpackChunkName: "hljs-ini" */ 'highlight.js/lib/languages/ini'),
  },
  java: { aliases: ['jsp'], load: () => import(/* webpackChunkName: "hljs-java" */ 'highlight.js/lib/languages/java') },
  javascript: {
    aliases: ['js', 'jsx', 'mjs', 'cjs', 'node'],
    load: () => import(/* webpackChunkName: "hljs-javascript" */ 'highlight.js/lib/languages/javascript'),
  },
  json: {
    aliases: ['jsonc', 'json5'],
    load: () => import(/* webpackChunkName: "hljs-json" */ 'highlight.js/lib/languages/json'),
  },
  kotlin: {
    aliases: ['kt', 'kts'],
    load: () => import(/* webpackChunkName: "hljs-kotlin" */ 'highlight.js/lib/languages/kotlin'),
  },
  latex: {
    aliases: ['tex'],
    load: () => import(/* webpackChunkName: "hljs-latex" */ 'highlight.js/lib/languages/latex'),
  },
  lua: { aliases: [], load: () => import(/* webpackChunkName: "hljs-lua" */ 'highlight.js/lib/languages/lua') },
  makefile: {
    aliases: ['make', 'mk'],
    load: () => import(/* webpackChunkName: "hljs-makefile" */ 'highlight.js/lib/languages/makefile'),
  },
  markdown: {
    aliases: ['md'],
    load: () => import(/* webpackChunkName: "hljs-markdown" */ 'highlight.js/lib/languages/markdown'),
  },
  nginx: { aliases: [], load: () => import(/* webpackChunkName: "hljs-nginx" */ 'highlight.js/lib/languages/nginx') },
  objectivec: {
    aliases: ['objc', 'obj-c'],
    load: () => import(/* webpackChunkName: "hljs-objectivec" */ 'highlight.js/lib/languages/objectivec'),
  },
  perl: {
    aliases: ['pl', 'pm'],
    load: () => import(/* webpackChunkName: "hljs-perl" */ 'highlight.js/lib/languages/perl'),
  },
  php: { aliases: [], load: () => import(/* webpackChunkName: "hljs-php" */ 'highlight.js/lib/languages/php') },
  powershell: {
    aliases: ['ps1', 'pwsh'],
    load: () => import(/* webpackChunkName: "hljs-powershell" */ 'highlight.js/lib/languages/powershell'),
  },
  protobuf: {
    aliases: ['proto'],
    load: () => import(/* webpackChunkName: "hljs-protobuf" */ 'highlight.js/lib/languages/protobuf'),
  },
  python: {
    aliases: ['py', 'python3'],
    load: () => import(/* webpackChunkName: "hljs-python" */ 'highlight.js/lib/languages/python'),
  },
  r: { aliases: [], load: () => import(/* webpackChunkName: "hljs-r" */ 'highlight.js/lib/languages/r') },
  ruby: { aliases: ['rb'], load: () => import(/* webpackChunkName: "hljs-ruby" */ 'highlight.js/lib/languages/ruby') },
  rust: { aliases: ['rs'], load: () => import(/* webpackChunkName: "hljs-rust" */ 'highlight.js/lib/languages/rust') },
  scala: { aliases: [], load: () => import(/* webpackChunkName: "hljs-scala" */ 'highlight.js/lib/languages/scala') },
  scss: { aliases: [], load: () => import(/* webpackChunkName: "hljs-scss" */ 'highlight.js/lib/languages/scss') },
  shell: {
    aliases: ['console', 'shellsession'],
    load: () => import(/* webpackChunkName: "hljs-shell" */ 'highlight.js/lib/languages/shell'),
  },
  sql: {
    aliases: ['postgresql', 'mysql', 'sqlite'],
    load: () => import(/* webpackChunkName: "hljs-sql" */ 'highlight.js/lib/languages/sql'),
  },
  swift: { aliases: [], load: () => import(/* webpackChunkName: "hljs-swift" */ 'highlight.js/lib/languages/swift') },
  typescript: {
    aliases: ['ts', 'tsx', 'mts', 'cts'],
    load: () => import(/* webpackChunkName: "hljs-typescript" */ 'highlight.js/lib/languages/typescript'),
  },
  xml: {
    aliases: ['html', 'xhtml', 'svg', 'vue'],
    load: () => import(/* webpackChunkName: "hljs-xml" */ 'highlight.js/lib/languages/xml'),
  },
  yaml: { aliases: ['yml'], load: () => import(/* webpackChunkName: "hljs-yaml" */ 'highlight.js/lib/languages/yaml') },
};

const BY_NAME = new Map<string, string>(
  Object.entries(GRAMMARS).flatMap(([name, { aliases }]) => [name, ...aliases].map((alias) => [alias, name] as const)),
);

/** The grammar for a fence's language (`ts`, `Python`, `language-js`…), or undefined: shown as plain text. */
export function grammarFor(language: string | undefined): string | undefined {
  if (!language) return undefined;
  return BY_NAME.get(
    language
      .trim()
      .toLowerCase()
      .replace(/^language-/, ''),
  );
}

let core: Promise<HLJSApi> | undefined;
/** Grammars registered so far, and those on their way. */
const registered = new Set<string>();
const loading = new Map<string, Promise<void>>();
/** highlight.js, once its core and the grammar are in: highlighting then runs synchronously, without flicker. */
let ready: HLJSApi | undefined;

/** Loads highlight.js's core and `grammar` (from grammarFor) once; later calls get the same promise. */
export function loadGrammar(grammar: string): Promise<void> {
  const known = loading.get(grammar);
  if (known) return known;
  const entry = GRAMMARS[grammar];
  if (!entry) return Promise.reject(new Error(`no grammar ${grammar}`));
  core ??= import(/* webpackChunkName: "hljs-core" */ 'highlight.js/lib/core').then((m) => m.default);
  const promise = Promise.all([core, entry.load()]).then(([hljs, language]) => {
    hljs.registerLanguage(grammar, language.default);
    registered.add(grammar);
    ready = hljs;
  });
  // A chunk that failed to load (a network blip) may be asked for again by the next code block.
  promise.catch(() => loading.delete(grammar));
  loading.set(grammar, promise);
  return promise;
}

/** Whether `grammar` is loaded, so that highlight() answers. */
export const grammarLoaded = (grammar: string): boolean => registered.has(grammar);

/** The code's tokens in `grammar` (loaded: see grammarLoaded), or null when it is not loaded or fails. */
export function highlight(code: string, grammar: string): CodeToken[] | null {
  if (!ready || !registered.has(grammar)) return null;
  try {
    return parseTokens(ready.highlight(code, { language: grammar, ignoreIllegals: true }).value);
  } catch {
    return null;
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };
/** highlight.js's output: its own `<span class="…">` and `</span>` tags around text it escaped (escapeHTML). */
const MARKUP = /<span class="([^"]*)">|<\/span>|([^<]+)/g;

/**
 * highlight.js's HTML as a token tree. The output holds nothing but the spans highlight.js opened and the code's
 * text, escaped with the five entities above, so this reads it whole; anything else would stay text.
 */
export function parseTokens(html: string): CodeToken[] {
  const root: CodeToken[] = [];
  const stack: CodeToken[][] = [root];
  for (const [, className, text] of html.matchAll(MARKUP)) {
    const current = stack.at(-1)!;
    if (text !== undefined) current.push(text.replace(/&(?:amp|lt|gt|quot|#x27);/g, (e) => ENTITIES[e]!));
    else if (className !== undefined) {
      const token = { className, children: [] as CodeToken[] };
      current.push(token);
      stack.push(token.children);
    } else if (stack.length > 1) stack.pop();
  }
  return root;
}
