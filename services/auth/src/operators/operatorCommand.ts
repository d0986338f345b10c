import { connectDatabase, createLogger, EventBus } from '@kasa/service-kit';
import { parseArgs } from 'node:util';
import { readConfig } from '../config';
import { createAuthComponents } from '../authComponents';
import { generateSigningKey } from '../tokens/signingKey';
import type { OperatorService } from './operatorService';

/**
 * The operator command (`npm run kasa -- <command>`, scripts/kasa.js): what whoever runs this Kasa does from the
 * machine it runs on, with the platform's own settings and database. Run with no command for the list.
 */
export const USAGE = `Usage: npm run kasa -- <command>

  operators                   list the operators
  operators add <email>       make the account with this e-mail an operator
  operators remove <email>    take the operator role away
  setup-link [--if-none]      print a new first-run setup link (only while nobody is an operator;
                              --if-none prints nothing then instead of a notice)
  inquiries [--status open]   list Enterprise inquiries (open, contacted or closed), newest first
  enterprise grant <email | inquiry id> --seats <n> --until <YYYY-MM-DD> [--amount <per month>] [--currency USD]
                              record an Enterprise contract: the account has Enterprise at once, with those seats,
                              until that day (then Free unless recorded again); the inquiry is closed
`;

export class CommandError extends Error {}

type Print = (line: string) => void;

/** Runs one command against `operators`; `publicUrl` is where people open Kasa (for the setup link). */
export async function runOperatorCommand(
  argv: readonly string[],
  operators: OperatorService,
  publicUrl: string,
  print: Print,
): Promise<void> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      'if-none': { type: 'boolean' },
      status: { type: 'string' },
      seats: { type: 'string' },
      until: { type: 'string' },
      amount: { type: 'string' },
      currency: { type: 'string' },
    },
  });
  const [command, action, argument] = positionals;
  switch (`${command ?? ''} ${action ?? ''}`.trim()) {
    case 'operators': {
      const list = await operators.list();
      if (list.length === 0) print('Nobody is an operator yet: `npm run kasa -- setup-link` prints the setup link.');
      for (const op of list) print(`${op.email}\t${op.username}\t${op.id}\t${op.source}`);
      return;
    }
    case 'operators add':
      if (!argument) throw new CommandError('operators add needs an e-mail address');
      print(`${(await operators.grant(argument)).email} is an operator.`);
      return;
    case 'operators remove':
      if (!argument) throw new CommandError('operators remove needs an e-mail address');
      await operators.revoke({ email: argument });
      print(`${argument} is no longer an operator.`);
      return;
    case 'setup-link': {
      const issued = await operators.issueSetupToken();
      if (!issued) {
        if (!values['if-none']) print('Kasa already has an operator: operators add others in the console or here.');
        return;
      }
      const link = new URL('/setup', publicUrl);
      link.searchParams.set('token', issued.token);
      print(
        `Open this link, signed in, to become this Kasa's operator (valid until ${issued.expiresAt.toISOString()}):`,
      );
      print(`  ${link.href}`);
      return;
    }
    case 'inquiries': {
      const status = values.status;
      if (status !== undefined && status !== 'open' && status !== 'contacted' && status !== 'closed') {
        throw new CommandError('--status is open, contacted or closed');
      }
      const list = await operators.inquiries({ status, limit: 200 });
      if (list.length === 0) print('No Enterprise inquiries.');
      for (const inquiry of list) {
        print(
          `${inquiry.id}\t${inquiry.status}\t${inquiry.email}\t${inquiry.company ?? '-'}\t` +
            `${inquiry.seats ?? '-'} seats\t${inquiry.phone ?? '-'}\t${inquiry.currentTier}\t` +
            `asked ${inquiry.requestCount}x, last ${inquiry.lastRequestedAt}`,
        );
      }
      return;
    }
    case 'enterprise grant': {
      if (!argument) throw new CommandError('enterprise grant needs an e-mail address or an inquiry id');
      const seats = Number(values.seats);
      if (!Number.isInteger(seats) || seats < 1)
        throw new CommandError('--seats is a whole number of seats, 1 or more');
      const until = /^\d{4}-\d{2}-\d{2}$/.test(values.until ?? '') ? new Date(`${values.until}T23:59:59.999Z`) : null;
      if (!until || Number.isNaN(until.getTime())) throw new CommandError('--until is the last day, as YYYY-MM-DD');
      const amount = values.amount === undefined ? undefined : Number(values.amount);
      if (amount !== undefined && !(amount >= 0)) throw new CommandError('--amount is a number, 0 or more');
      const currency = values.currency?.toUpperCase();
      if (currency !== undefined && !['USD', 'GHS', 'NGN', 'KES'].includes(currency)) {
        throw new CommandError('--currency is USD, GHS, NGN or KES');
      }
      const granted = await operators.grantEnterprise(
        argument.includes('@') ? { email: argument } : { inquiryId: argument },
        {
          seats,
          endsAt: until,
          amount,
          currency: currency as 'USD' | 'GHS' | 'NGN' | 'KES' | undefined,
        },
      );
      print(
        `${granted.email} has Enterprise for ${seats} seats until ${until.toISOString().slice(0, 10)} ` +
          `(contract ${granted.subscription.reference}).`,
      );
      return;
    }
    default:
      throw new CommandError(command ? `unknown command: ${positionals.join(' ')}` : 'no command given');
  }
}

/** The command as a process: auth's settings from the environment (scripts/kasa.js sets the launcher's). */
export async function main(argv: readonly string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help')) {
    process.stdout.write(USAGE);
    return argv.length === 0 ? 1 : 0;
  }
  const config = readConfig();
  const logger = createLogger({ service: 'kasa-command', version: 'command', level: 'error' });
  const publicUrl =
    config.KASA_PUBLIC_URL ?? config.WEB_ORIGIN[0] ?? `http://localhost:${process.env.GATEWAY_PORT ?? 8080}`;
  let db;
  try {
    db = await connectDatabase({ url: config.MONGO_URL, dbName: config.AUTH_DB_NAME, logger, maxAttempts: 2 });
  } catch {
    process.stderr.write(
      `Kasa's database does not answer at ${new URL(config.MONGO_URL).host}: start Kasa first (npm start).\n`,
    );
    return 1;
  }
  // Plan changes are announced on the broker as the service announces them; when it is away, they wait in the
  // subscription's outbox and the running auth service sends them (republishPending).
  const bus = new EventBus({ url: config.AMQP_URL, source: 'kasa/auth', logger, connectTimeoutMs: 5_000 });
  const connected = await bus.start().then(
    () => true,
    () => false,
  );
  // Without a broker the command still acts; its events wait in their outboxes for the service to republish them.
  const publisher: Pick<EventBus, 'publishWithin'> = connected ? bus : { publishWithin: () => Promise.resolve(false) };
  // The service's own composition root, so that the command acts exactly as the routes do. The signing key is a
  // throwaway one: the command issues no tokens, and must not create the service's key file.
  const auth = createAuthComponents({
    db,
    bus: publisher,
    logger,
    settings: config,
    signingKey: generateSigningKey(),
  });
  try {
    await runOperatorCommand(argv, auth.operators, publicUrl, (line) => process.stdout.write(`${line}\n`));
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`${message}\n`);
    if (err instanceof CommandError || (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`\n${USAGE}`);
    }
    return 1;
  } finally {
    await auth.apiKeyUsage.close();
    await bus.close();
    await db.close();
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
