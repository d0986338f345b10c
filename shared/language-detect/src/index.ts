export { LanguageDetector, type DetectionHints, type DetectionResult, type LanguageGuess } from './languageDetector';
export { DETECTABLE_LANGUAGES, type DetectableLanguage } from './detectableLanguages';
export { evaluateDetector, loadEvaluationSet, type EvaluationReport } from './evaluation';
export {
  AFRICAN_LANGUAGES,
  evaluatePublic,
  loadPublicSet,
  shortMessageOf,
  type FormFigures,
  type LanguageFigures,
  type PublicEvaluation,
} from './publicEvaluation';
