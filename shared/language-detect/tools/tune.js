#!/usr/bin/env node
// Calibrates the detector on eval/public/tune.json and writes src/calibration.ts. It reads the tune split only:
// the held-out split is for the bench and the budget test. Run after `npx tsc -b shared/language-detect`:
//   node shared/language-detect/tools/tune.js
// Multinomial logistic regression over each script's candidates: one weight per kind of evidence (FEATURES) and
// one bias per language, fitted on every tune sentence both cut to 3–6 words and in full.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { LanguageDetector, FEATURES } = require('../dist/languageDetector');
const { corpusWordLists } = require('../dist/corpusWords');
const { loadPublicSet, shortMessageOf } = require('../dist/publicEvaluation');

const EPOCHS = 60;
/** L2 pulls on the weights once per text (not once per candidate, which held them near their start) and on the biases. */
const WEIGHT_DECAY = 1e-4;
const BIAS_DECAY = 1e-3;
/** The confidence below which an answer is "not sure": the lowest at which sure short answers are 99 % right. */
const SURE_PRECISION = 0.99;

async function main() {
  const detector = await LanguageDetector.create();
  const set = loadPublicSet('tune');
  if (set.split !== 'tune') throw new Error('tools/tune.js reads the tune split only');
  // Cross-fitting: each half of the tune split is measured with corpus word lists made from the other half, so the
  // weight of the corpus words is learned on text they were not made from.
  const half = (parity) =>
    Object.fromEntries(
      Object.entries(set.sentences).map(([language, sentences]) => [
        language,
        sentences.filter((_, i) => i % 2 === parity),
      ]),
    );
  const measuredBy = [
    detector.withCorpusWords(corpusWordLists(half(1))),
    detector.withCorpusWords(corpusWordLists(half(0))),
  ];
  const rows = [];
  for (const [language, sentences] of Object.entries(set.sentences)) {
    for (const [index, sentence] of sentences.entries()) {
      for (const [form, text] of [
        ['short', shortMessageOf(sentence)],
        ['full', sentence],
      ]) {
        const evidence = measuredBy[index % 2].evidence(text);
        if (!evidence || 'single' in evidence) continue;
        if (!evidence.candidates.includes(language)) continue; // wrong script for its label: nothing to learn
        rows.push({ language, form, candidates: evidence.candidates, features: evidence.features });
      }
    }
  }
  const weights = Object.fromEntries(FEATURES.map((name) => [name, 1]));
  const bias = {};
  const score = (row) =>
    row.candidates.map((code) => {
      const f = row.features.get(code);
      let s = bias[code] ?? 0;
      for (const name of FEATURES) s += weights[name] * f[name];
      return s;
    });
  let rate = 0.05;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (const row of rows) {
      const scores = score(row);
      const top = Math.max(...scores);
      const exp = scores.map((s) => Math.exp(s - top));
      const total = exp.reduce((a, b) => a + b, 0);
      for (const name of FEATURES) weights[name] -= rate * WEIGHT_DECAY * weights[name];
      row.candidates.forEach((code, i) => {
        const gradient = exp[i] / total - (code === row.language ? 1 : 0);
        const f = row.features.get(code);
        for (const name of FEATURES) weights[name] -= rate * gradient * f[name];
        bias[code] = (bias[code] ?? 0) - rate * (gradient + BIAS_DECAY * (bias[code] ?? 0));
      });
    }
    rate *= 0.93;
  }
  // The not-sure threshold, from the short forms: sort by confidence, find where sure answers reach the precision.
  const answers = rows
    .filter((row) => row.form === 'short')
    .map((row) => {
      const scores = score(row);
      const top = Math.max(...scores);
      const exp = scores.map((s) => Math.exp(s - top));
      const total = exp.reduce((a, b) => a + b, 0);
      const best = scores.indexOf(top);
      return { confidence: exp[best] / total, right: row.candidates[best] === row.language };
    })
    .sort((a, b) => b.confidence - a.confidence);
  let right = 0;
  let notSureBelow = 0.5;
  answers.forEach((answer, i) => {
    if (answer.right) right += 1;
    if (right / (i + 1) >= SURE_PRECISION) notSureBelow = answer.confidence;
  });
  notSureBelow = Math.min(0.9, Math.max(0.3, notSureBelow));
  const round = (v) => Math.round(v * 1000) / 1000;
  const file = path.resolve(__dirname, '../src/calibration.ts');
  const body = `// Written by tools/tune.js from eval/public/tune.json (never the held-out split): \`node shared/language-detect/tools/tune.js\`.
import type { FeatureName } from './languageDetector';

export const CALIBRATION: {
  weights: Record<FeatureName, number>;
  bias: Record<string, number>;
  notSureBelow: number;
} = ${JSON.stringify(
    {
      weights: Object.fromEntries(Object.entries(weights).map(([k, v]) => [k, round(v)])),
      bias: Object.fromEntries(
        Object.entries(bias)
          .sort()
          .map(([k, v]) => [k, round(v)]),
      ),
      notSureBelow: round(notSureBelow),
    },
    null,
    2,
  )};
`;
  fs.writeFileSync(file, body);
  const lists = corpusWordLists(set.sentences);
  const wordsFile = path.resolve(__dirname, '../src/corpusWordData.ts');
  fs.writeFileSync(
    wordsFile,
    `// Written by tools/tune.js from eval/public/tune.json (never the held-out split); see corpusWords.ts.\n` +
      `export const CORPUS_WORDS: Record<string, string> = ${JSON.stringify(
        Object.fromEntries(Object.entries(lists).map(([code, words]) => [code, words.join(' ')])),
        null,
        2,
      )};\n`,
  );
  console.log(`calibrated on ${rows.length} tune texts; not sure below ${round(notSureBelow)}; wrote ${file}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
