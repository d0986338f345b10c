/**
 * Language detection on public text (ARCHITECTURE.md, "Budgets"; issue 15): the held-out split of
 * shared/language-detect/eval/public (see SOURCES.md there), which the calibration never reads. Every sentence is
 * detected twice without hints: cut to its first 3–6 words like a chat message ("short") and in full.
 *
 * Budgets: short ≥ 95 % macro accuracy over all languages, ≥ 97 % over the six African ones (Twi, Hausa, Ga, Ewe,
 * Yoruba, Swahili); detection ≤ 5 ms p99 in-process. Printed: the summary, per-language accuracy and precision,
 * and the ten most frequent confusions.
 */
import { evaluatePublic, LanguageDetector, type FormFigures, type PublicEvaluation } from '@kasa/language-detect';

export const DETECTION_BUDGETS = { shortMacro: 0.95, shortAfrican: 0.97, p99Ms: 5 };

export interface DetectionBenchResult extends PublicEvaluation {
  usesCld2: boolean;
  withinBudget: { shortMacro: boolean; shortAfrican: boolean; p99: boolean };
}

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;

function printForm(name: string, figures: FormFigures): void {
  console.log(
    `  ${name.padEnd(5)} macro ${pct(figures.macro)}, six African ${pct(figures.african)}, ` +
      `not sure ${pct(figures.notSure)} (sure answers ${pct(figures.sureAccuracy)} right)`,
  );
}

export async function runDetectionBench(): Promise<DetectionBenchResult> {
  const detector = await LanguageDetector.create();
  // Warm-up outside the measurement: the first calls load the models' tables.
  for (const text of ['Hello there', 'Bonjour à tous', 'Medaase paa', 'Как дела?']) detector.detect(text);
  const report = evaluatePublic(detector, 'heldout');
  console.log(
    `\nlanguage detection, held-out public split: ${report.languages} languages, ${report.sentences} sentences` +
      `${detector.usesCld2 ? '' : ' (CLD2 not loaded: franc-all and eld only)'}`,
  );
  printForm('short', report.short);
  printForm('full', report.full);
  console.log(
    `  latency p50 ${report.latencyMs.p50.toFixed(3)} ms, p99 ${report.latencyMs.p99.toFixed(3)} ms, ` +
      `max ${report.latencyMs.max.toFixed(1)} ms`,
  );
  console.log('\n  lang  source            short acc  prec   full acc  prec');
  report.short.perLanguage.forEach((s, i) => {
    const f = report.full.perLanguage[i]!;
    console.log(
      `  ${s.language.padEnd(5)} ${s.source.padEnd(17)} ${pct(s.accuracy).padStart(8)} ${pct(s.precision).padStart(7)}` +
        `  ${pct(f.accuracy).padStart(8)} ${pct(f.precision).padStart(7)}`,
    );
  });
  for (const [name, figures] of [
    ['short', report.short],
    ['full', report.full],
  ] as const) {
    const worst = figures.confusions
      .slice(0, 10)
      .map((c) => `${c.expected}→${c.detected} ${c.count}`)
      .join(', ');
    console.log(`\n  worst 10 confusions (${name}): ${worst || 'none'}`);
  }
  return {
    ...report,
    usesCld2: detector.usesCld2,
    withinBudget: {
      shortMacro: report.short.macro >= DETECTION_BUDGETS.shortMacro,
      shortAfrican: report.short.african >= DETECTION_BUDGETS.shortAfrican,
      p99: report.latencyMs.p99 <= DETECTION_BUDGETS.p99Ms,
    },
  };
}
