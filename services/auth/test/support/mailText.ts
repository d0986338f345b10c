/**
 * Reads a MIME message as a mail client shows it (not a test file itself): the headers with their encoded words
 * decoded (RFC 2047), and the plain-text and HTML parts decoded from quoted-printable or base64. Enough for the
 * messages nodemailer composes; not a general parser.
 */

export interface ReadMail {
  raw: string;
  /** Header names lower-cased, values unfolded and decoded. */
  headers: Record<string, string>;
  subject: string;
  from: string;
  to: string;
  text: string;
  html: string;
}

const bytesOfQuotedPrintable = (value: string): Buffer => {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const hex = value.slice(i + 1, i + 3);
    if (value[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(value[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
};

/** `=?UTF-8?Q?…?=` and `=?UTF-8?B?…?=` words, the blanks between two of them dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_whole, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : bytesOfQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return headers;
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return { headers: parseHeaders(raw), body: '' };
  const gap = /\r?\n\r?\n/.exec(raw.slice(at))![0].length;
  return { headers: parseHeaders(raw.slice(0, at)), body: raw.slice(at + gap) };
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return bytesOfQuotedPrintable(body.replace(/=\r?\n/g, '')).toString('utf8');
    default:
      return body;
  }
}

/** The leaf parts of a (possibly multipart) entity, each decoded, with its content type. */
function partsOf(raw: string): Array<{ type: string; content: string }> {
  const { headers, body } = splitEntity(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => partsOf(part.replace(/^\r?\n/, '')));
  }
  return [
    { type: type.split(';')[0]!.trim().toLowerCase(), content: decodeBody(body, headers['content-transfer-encoding']) },
  ];
}

export function readMail(raw: string): ReadMail {
  const { headers } = splitEntity(raw);
  const parts = partsOf(raw);
  return {
    raw,
    headers,
    subject: headers.subject ?? '',
    from: headers.from ?? '',
    to: headers.to ?? '',
    text: parts.find((part) => part.type === 'text/plain')?.content.replace(/\r\n/g, '\n') ?? '',
    html: parts.find((part) => part.type === 'text/html')?.content ?? '',
  };
}
