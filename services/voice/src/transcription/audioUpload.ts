import { MULTIPART_OVERHEAD_BYTES, payloadTooLargeMessage, TRANSCRIBE_AUDIO_TYPES } from '@kasa/contracts';
import { HttpError, InputError, PayloadTooLargeError } from '@kasa/service-kit';
import express, { type Request, type RequestHandler, type Response } from 'express';
import multer from 'multer';
import type { UploadedAudio } from './transcriber';

const ACCEPTED = new Set<string>(TRANSCRIBE_AUDIO_TYPES);
/** What browsers and recorders also call these formats. */
const ALIASES: Record<string, string> = {
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/mp3': 'audio/mpeg',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/opus': 'audio/ogg',
  'video/webm': 'audio/webm',
};

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string, details?: unknown) {
    super(415, 'unsupported_media_type', message, details);
  }
}

const normalize = (type: string | undefined): string => {
  const bare = (type ?? '').split(';')[0]!.trim().toLowerCase();
  return ALIASES[bare] ?? bare;
};

/** What a file name's extension says, for a part sent without a type of its own (OpenAI's clients name the file only). */
const EXTENSION_TYPES: Record<string, string> = {
  webm: 'audio/webm',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  mpeg: 'audio/mpeg',
  mpga: 'audio/mpeg',
  mp4: 'audio/mp4',
  m4a: 'audio/mp4',
};

/** A form part's type: as declared, or, when it declares none (or only bytes), as its file name says. */
function partType(declared: string, fileName: string): string {
  const bare = normalize(declared);
  if (bare !== '' && bare !== 'application/octet-stream') return declared;
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return (extension && EXTENSION_TYPES[extension]) || declared;
}

/**
 * Whether the bytes look like the declared format: the client's Content-Type is only a claim, and a provider billed
 * per second should not be sent a text file.
 */
export function looksLike(contentType: string, bytes: Buffer): boolean {
  const ascii = (from: number, to: number) => bytes.toString('latin1', from, to);
  switch (contentType) {
    case 'audio/wav':
      return ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE';
    case 'audio/ogg':
      return ascii(0, 4) === 'OggS';
    case 'audio/webm':
      return bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3;
    case 'audio/mpeg':
      return ascii(0, 3) === 'ID3' || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0);
    case 'audio/mp4':
      return ascii(4, 8) === 'ftyp';
    default:
      return false;
  }
}

const unsupported = (contentType: string) =>
  new UnsupportedMediaTypeError(
    `Audio must be one of ${TRANSCRIBE_AUDIO_TYPES.join(', ')}${contentType ? ` (got ${contentType})` : ''}`,
    { accepted: TRANSCRIBE_AUDIO_TYPES },
  );

function checked(bytes: Buffer, declared: string | undefined): UploadedAudio {
  const contentType = normalize(declared);
  if (!ACCEPTED.has(contentType)) throw unsupported(contentType);
  if (bytes.length === 0) throw new InputError('The audio is empty', undefined, 'empty_audio');
  if (!looksLike(contentType, bytes)) {
    throw new UnsupportedMediaTypeError(`The upload is not ${contentType} audio`, { contentType });
  }
  return { bytes, contentType };
}

/**
 * Reads the audio of POST /api/voice/transcribe into `res.locals.audio` and the other fields into
 * `res.locals.fields`: a multipart form (field `audio`, or `file`, plus `language`), or the audio itself as the body
 * with its Content-Type (fields in the query). A part without a type of its own (or `application/octet-stream`) has
 * the type its file name says. Larger than `maxBytes`: 413; another type: 415. `options.fields`: how many fields
 * besides the file the form may have (5 by default); `options.fileField`: the field a missing file is asked for in.
 */
export function audioUpload(
  maxBytes: number,
  options: { fields?: number; fileField?: 'audio' | 'file' } = {},
): RequestHandler {
  const fields = options.fields ?? 5;
  const form = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields, fieldSize: 1_000, parts: fields + 3 },
  }).fields([
    { name: 'audio', maxCount: 1 },
    { name: 'file', maxCount: 1 },
  ]);
  const raw = express.raw({ type: () => true, limit: maxBytes });
  const tooLarge = () => new PayloadTooLargeError(payloadTooLargeMessage(maxBytes, 'recording'));

  return (req: Request, res: Response, next) => {
    const declared = Number(req.headers['content-length']);
    // The form around the recording may add up to MULTIPART_OVERHEAD_BYTES, as the gateway's upload route allows.
    if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_OVERHEAD_BYTES) {
      // Refuse at once rather than read megabytes that will be thrown away; the connection closes after the answer.
      res.setHeader('Connection', 'close');
      next(tooLarge());
      return;
    }
    if (req.is('multipart/form-data')) {
      form(req, res, (err: unknown) => {
        if (err) {
          const code = (err as { code?: string }).code;
          if (code === 'LIMIT_FILE_SIZE') return next(tooLarge());
          if (err instanceof multer.MulterError)
            return next(new InputError(`The form is not valid (${err.code.toLowerCase()})`, { field: err.field }));
          return next(new InputError('The form could not be read'));
        }
        const files = req.files as Record<string, Express.Multer.File[]> | undefined;
        const file = files?.audio?.[0] ?? files?.file?.[0];
        if (!file)
          return next(
            new InputError(
              `Send the recording in the form field \`${options.fileField ?? 'audio'}\``,
              // OpenAI's `param` on the OpenAI-compatible route, which names its field.
              options.fileField ? { param: options.fileField } : undefined,
              'audio_required',
            ),
          );
        try {
          res.locals.audio = checked(file.buffer, partType(file.mimetype, file.originalname));
          res.locals.fields = { ...(req.body as Record<string, unknown>) };
          next();
        } catch (error) {
          next(error);
        }
      });
      return;
    }
    const contentType = normalize(req.headers['content-type']);
    if (!ACCEPTED.has(contentType)) {
      next(unsupported(contentType));
      return;
    }
    raw(req, res, (err: unknown) => {
      if (err) {
        if ((err as { type?: string }).type === 'entity.too.large') return next(tooLarge());
        return next(err);
      }
      try {
        res.locals.audio = checked(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), contentType);
        res.locals.fields = { ...(req.query as Record<string, unknown>) };
        next();
      } catch (error) {
        next(error);
      }
    });
  };
}
