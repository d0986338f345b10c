import { z } from './zod';

/**
 * A person's theme (spec section 3), kept by the auth service so that it follows them to another browser.
 * The slider bounds are spec section 5's; the shell's SLIDERS hold the same numbers (a shell test compares them).
 */
export const ThemeSettings = z
  .object({
    mode: z.enum(['light', 'dark']),
    colorScheme: z.enum(['electric', 'cyber', 'neon', 'quantum', 'mono']),
    animations: z.boolean(),
    highContrast: z.boolean(),
    customSettings: z.object({
      borderRadius: z.number().int().min(0).max(20),
      spacing: z
        .number()
        .int()
        .min(8)
        .max(32)
        .refine((value) => value % 2 === 0, 'spacing moves in steps of 2'),
      fontSize: z.number().int().min(12).max(18),
    }),
  })
  .openapi('ThemeSettings');
export type ThemeSettings = z.infer<typeof ThemeSettings>;

/** GET and PUT /api/auth/preferences/theme. `theme` is null until the person saves one. */
export const ThemePreferenceResponse = z
  .object({ theme: ThemeSettings.nullable(), updatedAt: z.string().datetime().nullable() })
  .openapi('ThemePreferenceResponse');
export type ThemePreferenceResponse = z.infer<typeof ThemePreferenceResponse>;

/** A guided tour's id as the web app names them (`welcome`, `chat`, `developer`, and any added later). */
const TourName = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'a tour id is lower-case letters, digits and dashes');

const distinct = (ids: string[]) => new Set(ids).size === ids.length;

/**
 * A person's guided tours (spec section 3's saved guidance state, plus the tours they skipped), kept by the auth
 * service so that a tour completed or skipped once does not come back in another browser or after a reload.
 */
export const TourPreferences = z
  .object({
    hasSeenWelcome: z.boolean(),
    completedTours: z.array(TourName).max(20).refine(distinct, 'each tour is listed once'),
    skippedTours: z.array(TourName).max(20).refine(distinct, 'each tour is listed once'),
  })
  .strict()
  .openapi('TourPreferences');
export type TourPreferences = z.infer<typeof TourPreferences>;

/** GET and PUT /api/auth/preferences/tours. `tours` is null until the person finishes or skips a tour. */
export const TourPreferenceResponse = z
  .object({ tours: TourPreferences.nullable(), updatedAt: z.string().datetime().nullable() })
  .openapi('TourPreferenceResponse');
export type TourPreferenceResponse = z.infer<typeof TourPreferenceResponse>;

/**
 * The languages of the web app's interface (its message catalogues), as BCP 47 tags: English (the source), French,
 * Swahili, Hausa, Yoruba, Twi (Akan), Ewe, Ga, and Arabic (which proves the right-to-left layout).
 */
export const UI_LANGUAGES = ['en', 'fr', 'sw', 'ha', 'yo', 'tw', 'ee', 'gaa', 'ar'] as const;
export const UiLanguage = z.enum(UI_LANGUAGES).openapi('UiLanguage');
export type UiLanguage = z.infer<typeof UiLanguage>;

/** PUT /api/auth/preferences/language. */
export const LanguagePreference = z.object({ language: UiLanguage }).strict().openapi('LanguagePreference');
export type LanguagePreference = z.infer<typeof LanguagePreference>;

/** GET and PUT /api/auth/preferences/language. `language` is null until the person picks one. */
export const LanguagePreferenceResponse = z
  .object({ language: UiLanguage.nullable(), updatedAt: z.string().datetime().nullable() })
  .openapi('LanguagePreferenceResponse');
export type LanguagePreferenceResponse = z.infer<typeof LanguagePreferenceResponse>;
