import { z } from './zod';

export const SynthesizeRequest = z
  .object({
    text: z.string().trim().min(1, 'text is required').max(5_000, 'text must be at most 5000 characters'),
    voice: z.string().trim().min(1).max(64).optional(),
    language: z.string().trim().min(2).max(16).default('en'),
  })
  .openapi('SynthesizeRequest');
export type SynthesizeRequest = z.infer<typeof SynthesizeRequest>;

export const SynthesizeResponse = z
  .object({ audioUrl: z.string(), duration: z.number().nonnegative() })
  .openapi('SynthesizeResponse');
export type SynthesizeResponse = z.infer<typeof SynthesizeResponse>;
