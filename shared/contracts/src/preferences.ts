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
