import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { RoleSchema } from './contracts/auth.contract';
import { EmailSchema } from './contracts/common.contract';
import { loadConfig } from './config';
import { SESSIONS_ENDED_CHANNEL, authServiceOn } from './features/auth/auth.service';
import { accountsRepository } from './features/auth/accounts.repository';
import { generatePassword } from './features/auth/password';
import { teamServiceOn } from './features/auth/team.service';
import { instanceSignal, openDatabase } from './db/database';

/**
 * The accounts on a server without the app: the first admin, and recovery when nobody can sign in.
 * Everything else about the team is done in the app (the team page).
 */
const USAGE = `Usage:
  npm run account -- add --email <email> --role <admin|staff|runner> [--name <name>] [--password <password>]
  npm run account -- password --email <email> [--password <password>]
  npm run account -- revoke-sessions --email <email>
  npm run account -- deactivate --email <email>
  npm run account -- activate --email <email>
  npm run account -- --help
A password left out is generated and printed once. Changing a password ends the account's sessions;
deactivating ends them too, and the person cannot sign in until the account is activated again.
The last active admin cannot be deactivated. The database is DATABASE_URL's.`;

const COMMANDS = ['add', 'password', 'revoke-sessions', 'deactivate', 'activate'] as const;
type Command = (typeof COMMANDS)[number];

/** What the command line asks for, or the answer to give at once (usage, a mistake in the arguments). */
type Parsed = { command: Command; email: string; role?: string; name?: string; password?: string } | { exit: number; out?: string; err?: string };

function parse(argv: string[]): Parsed {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { email: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    // node:util's words are long and name an internal code: one line of ours, then the usage.
    const unknown = err instanceof Error ? /Unknown option '([^']+)'/.exec(err.message)?.[1] : undefined;
    const line = unknown ? `Unknown option ${unknown}` : err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    return { exit: 2, err: `${line}\n\n${USAGE}` };
  }
  const { positionals, values } = parsed;
  if (values.help) return { exit: 0, out: USAGE };
  if (argv.length === 0) return { exit: 2, err: USAGE };
  const [command, ...extra] = positionals;
  if (!command) return { exit: 2, err: USAGE };
  if (!(COMMANDS as readonly string[]).includes(command)) return { exit: 2, err: `Unknown command ${command}\n\n${USAGE}` };
  if (extra.length > 0) return { exit: 2, err: `Unexpected ${extra.join(' ')}\n\n${USAGE}` };
  const email = v.safeParse(EmailSchema, values.email ?? '');
  if (!email.success) return { exit: 2, err: `--email: ${email.issues[0]?.message}\n\n${USAGE}` };
  if (values.password !== undefined && values.password.length < 12) return { exit: 2, err: '--password must be at least 12 characters.' };
  return { command: command as Command, email: email.output, role: values.role, name: values.name, password: values.password };
}

async function run(args: Extract<Parsed, { command: Command }>): Promise<number> {
  const { command, email } = args;
  const config = loadConfig(process.env);
  const database = await openDatabase(config.DATABASE_URL);
  // On PostgreSQL the running instances hear of ended sessions and close their event streams at once.
  const sessionsEnded = instanceSignal(database, SESSIONS_ENDED_CHANNEL).send;
  const auth = authServiceOn(database.db, { sessionTtlMs: 0, sessionsEnded });
  const password = args.password ?? generatePassword();
  try {
    switch (command) {
      case 'add': {
        const role = v.safeParse(RoleSchema, args.role);
        if (!role.success) {
          console.error(`--role: ${role.issues[0]?.message}`);
          return 2;
        }
        const user = await auth.addAccount(null, { email, role: role.output, name: args.name ?? email.split('@')[0] ?? 'User', password });
        console.log(`Added ${user.role} ${user.email}.${args.password ? '' : ` Password: ${password}`}`);
        return 0;
      }
      case 'password': {
        if (!(await auth.setPassword(null, email, password))) {
          console.error(`No account with email ${email}.`);
          return 1;
        }
        console.log(`Password changed for ${email}; its sessions have ended.${args.password ? '' : ` New password: ${password}`}`);
        return 0;
      }
      case 'revoke-sessions': {
        console.log(`Ended ${await auth.revokeSessions(null, email)} session(s) of ${email}.`);
        return 0;
      }
      case 'deactivate':
      case 'activate': {
        const account = await accountsRepository(database.db).findByEmail(email);
        if (!account) {
          console.error(`No account with email ${email}.`);
          return 1;
        }
        // The team page's own path: the sessions end in the same transaction, the last active admin stays, the trail says so.
        const team = teamServiceOn(database, { auth, sessionsEnded });
        await team.changeStatus(null, account.id, command === 'deactivate' ? 'deactivated' : 'active');
        console.log(command === 'deactivate' ? `Deactivated ${email}; its sessions have ended.` : `Activated ${email}; they can sign in again.`);
        return 0;
      }
    }
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const parsed = parse(argv);
  if ('exit' in parsed) {
    if (parsed.out) console.log(parsed.out);
    if (parsed.err) console.error(parsed.err);
    return parsed.exit;
  }
  try {
    return await run(parsed);
  } catch (err) {
    // A refusal (the last admin, an email taken) or a database that cannot be reached: its words, no stack.
    console.error(err instanceof Error ? err.message : err);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
