// Written by tools/tune.js from eval/public/tune.json (never the held-out split): `node shared/language-detect/tools/tune.js`.
import type { FeatureName } from './languageDetector';

export const CALIBRATION: {
  weights: Record<FeatureName, number>;
  bias: Record<string, number>;
  notSureBelow: number;
} = {
  "weights": {
    "franc": 2.639,
    "francLong": 0.727,
    "francAlone": 1.031,
    "eld": 1.435,
    "eldTop": 1.768,
    "eldUnknown": 1.036,
    "cld2": 1.604,
    "cld2Top": 1.634,
    "cld2Unknown": 0.229,
    "word": 1.843,
    "bareWord": 0.028,
    "letter": 1.733
  },
  "bias": {
    "af": 0.256,
    "ar": 0.589,
    "be": 0.112,
    "bg": 0.543,
    "ca": 1.193,
    "cs": -0.338,
    "da": -0.635,
    "de": -0.434,
    "ee": 0.361,
    "en": -2.162,
    "es": -0.378,
    "et": 0.848,
    "fa": -0.217,
    "fi": -0.131,
    "fr": -0.446,
    "gaa": 0.31,
    "ha": 0.119,
    "hi": -1.852,
    "hr": 0.805,
    "hu": -0.102,
    "id": -0.411,
    "ig": 0.193,
    "it": -0.097,
    "kk": 0.912,
    "lt": -0.257,
    "lv": 0.192,
    "mr": -0.088,
    "nb": -0.11,
    "ne": 1.941,
    "nl": -0.194,
    "pl": -0.123,
    "pt": -0.665,
    "ro": 0.098,
    "ru": 0.536,
    "sk": 0.115,
    "sl": 1.027,
    "so": 0.582,
    "sr": -2.289,
    "sv": 0.011,
    "sw": 0.602,
    "tl": -0.63,
    "tr": -0.097,
    "tw": -0.103,
    "uk": 0.186,
    "ur": -0.372,
    "vi": -0.186,
    "yo": -0.346,
    "zu": 1.132
  },
  "notSureBelow": 0.9
};
