/** A real SMTP server (smtp-server, by nodemailer's authors) that keeps what it receives (not a test file itself). */
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { readMail, type ReadMail } from './mailText';

/** One message as the server received it: the envelope, who signed in, and the message read. */
export interface ReceivedMail extends ReadMail {
  envelopeFrom: string;
  envelopeTo: string[];
  user: string | undefined;
}

/** A refusal the server answers a recipient with (e.g. 451 to try later, 550 for good), or nothing to accept it. */
export type RecipientRule = (address: string) => { code: number; message: string } | undefined;

/** An SMTP server on 127.0.0.1 that asks for a user and password over plain SMTP, as a local relay would. */
export class SmtpInbox {
  readonly received: ReceivedMail[] = [];
  /** Decides each recipient (all accepted unless set). */
  recipientRule: RecipientRule = () => undefined;
  private server?: SMTPServer;
  private port = 0;

  constructor(
    readonly user = 'kasa-mailer',
    readonly password = 'p@ss w0rd/secret',
  ) {}

  async start(): Promise<this> {
    this.server = new SMTPServer({
      // Plain SMTP on loopback: no STARTTLS (its certificate would be self-signed), sign-in allowed without TLS.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === this.user && auth.password === this.password) callback(null, { user: auth.username });
        else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onRcptTo: (address: SMTPServerAddress, _session, callback) => {
        const refusal = this.recipientRule(address.address);
        callback(refusal ? Object.assign(new Error(refusal.message), { responseCode: refusal.code }) : null);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const envelope = session.envelope;
          this.received.push({
            ...readMail(Buffer.concat(chunks).toString('utf8')),
            envelopeFrom: envelope.mailFrom ? envelope.mailFrom.address : '',
            envelopeTo: envelope.rcptTo.map((rcpt) => rcpt.address),
            user: typeof session.user === 'string' ? session.user : undefined,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  /** SMTP_URL for this server, with its user and password URL-encoded. */
  get url(): string {
    return `smtp://${encodeURIComponent(this.user)}:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}`;
  }

  /** What was sent to an address, in order of arrival. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.envelopeTo.includes(address));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
