import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { RoleSchema } from './contracts/auth.contract';
import { EmailSchema } from './contracts/common.contract';
import { loadConfig } from './config';
import { SESSIONS_ENDED_CHANNEL, authServiceOn } from './features/auth/auth.service';
import { generatePassword } from './features/auth/password';
import { instanceSignal, openDatabase } from './db/database';

const USAGE = `Usage:
  npm run account -- add --email <email> --role <admin|staff|runner> [--name <name>] [--password <password>]
  npm run account -- password --email <email> [--password <password>]
  npm run account -- revoke-sessions --email <email>
A password left out is generated and printed once. Changing a password ends the account's sessions.`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } },
  });
  const command = positionals[0];
  const email = v.safeParse(EmailSchema, values.email ?? '');
  if (!command || !email.success) {
    console.error(email.success ? USAGE : `--email: ${email.issues[0]?.message}\n\n${USAGE}`);
    return 2;
  }
  if (values.password !== undefined && values.password.length < 12) {
    console.error('--password must be at least 12 characters.');
    return 2;
  }
  const config = loadConfig(process.env);
  const database = await openDatabase(config.DATABASE_URL);
  // On PostgreSQL the running instances hear of ended sessions and close their event streams at once.
  const sessionsEnded = instanceSignal(database, SESSIONS_ENDED_CHANNEL).send;
  const auth = authServiceOn(database.db, { sessionTtlMs: 0, sessionsEnded });
  const password = values.password ?? generatePassword();
  try {
    switch (command) {
      case 'add': {
        const role = v.safeParse(RoleSchema, values.role);
        if (!role.success) {
          console.error(`--role: ${role.issues[0]?.message}`);
          return 2;
        }
        const user = await auth.addAccount(null, { email: email.output, role: role.output, name: values.name ?? email.output.split('@')[0] ?? 'User', password });
        console.log(`Added ${user.role} ${user.email}.${values.password ? '' : ` Password: ${password}`}`);
        return 0;
      }
      case 'password': {
        if (!(await auth.setPassword(null, email.output, password))) {
          console.error(`No account with email ${email.output}.`);
          return 1;
        }
        console.log(`Password changed for ${email.output}; its sessions have ended.${values.password ? '' : ` New password: ${password}`}`);
        return 0;
      }
      case 'revoke-sessions': {
        console.log(`Ended ${await auth.revokeSessions(null, email.output)} session(s) of ${email.output}.`);
        return 0;
      }
      default:
        console.error(USAGE);
        return 2;
    }
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
