// The "katex" chunk: KaTeX with its stylesheet and fonts (served from this remote's build, see webpack.config.js),
// loaded only when a reply holds maths (MathText.tsx).
import 'katex/dist/katex.min.css';

export { renderTex } from './katexRender';
