import { isUuid, type KeyAccess } from '@app/common';
import { AccountsService } from '../../api/src/dashboard/accounts/index.js';
import { ApiKeysService } from '../../api/src/api-keys/index.js';

export class UsageError extends Error {}

/** Options that take no value. */
const FLAGS = new Set(['allow-duplicate', 'test']);

export const USAGE = `Property Portfolio API admin CLI: teams, API keys and dashboard users, on the server's database
(DATABASE_URL, or the checkout's embedded PostgreSQL). Every command prints one JSON line.

Usage: npm run --silent cli -- <command>

  teams create --name <team name> [--allow-duplicate]
                                         a team and its first API key: {"teamId","apiKeyId","apiKey"};
                                         a name another team has (ignoring case) is created too, with a
                                         warning on stderr unless --allow-duplicate is given
  teams list                             every team: [{"teamId","name","createdAt","liveKeys","totalKeys"}]
                                         (live: neither revoked nor expired; total: every key made)
  keys create --team <teamId> [--name <label>] [--access read_write|read_only] [--expires <YYYY-MM-DD>] [--test]
                                         a key (shown once): {"teamId","apiKeyId","apiKey"}; with --test a
                                         test key (ppk_test_…) of the team's sandbox, created on first use,
                                         in the same shape with the live teamId given
  keys list --team <teamId> [--test]     the team's keys, or with --test its sandbox's (never the keys
                                         themselves)
  keys revoke <apiKeyId>                 refused on the very next request, on every instance
  users create --team <teamId> --email <email>
                                         a dashboard account; the password (12+ characters) is read
                                         from standard input: {"userId"}
  --help                                 this text

The dashboard is at /dashboard on the server's port; keys made there and here are the same keys.`;

export interface ParsedArgs {
  words: string[];
  options: Map<string, string>;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      options.set('help', 'true');
    } else if (FLAGS.has(arg.slice(2))) {
      options.set(arg.slice(2), 'true');
    } else if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
    } else {
      words.push(arg);
    }
  }
  return { words, options };
}

function text(options: Map<string, string>, name: string, required: boolean): string | null {
  const value = options.get(name)?.trim();
  if (value === undefined || value === '') {
    if (required) throw new UsageError(`--${name} is required`);
    return null;
  }
  if (value.length > 260) throw new UsageError(`--${name} must be at most 260 characters`);
  return value;
}

function uuid(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`${what} is required`);
  if (!isUuid(value)) throw new UsageError(`${what} must be a UUID`);
  return value.toLowerCase();
}

function access(value: string | undefined): KeyAccess {
  if (value === undefined || value === 'read_write' || value === 'read_only') return value ?? 'read_write';
  throw new UsageError('--access must be read_write or read_only');
}

function expiry(value: string | undefined, now: number): Date | null {
  if (value === undefined) return null;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00.000Z`) : Number.NaN;
  if (Number.isNaN(at)) throw new UsageError('--expires must be a date like 2027-01-31 (the key stops at 00:00 UTC)');
  if (at <= now) throw new UsageError('--expires must be in the future');
  return new Date(at);
}

export interface CommandServices {
  keys: ApiKeysService;
  accounts: AccountsService;
  /** Writes a warning for a person (stderr): the command still succeeds and prints its line. */
  warn: (message: string) => void;
  /** The password for `users create`, read from standard input only when that command runs. */
  readPassword: () => Promise<string>;
}

/** Runs one command and returns what to print as one JSON line. */
export async function runCommand(
  args: ParsedArgs,
  { keys, accounts, readPassword, warn }: CommandServices,
): Promise<unknown> {
  const [group, action, target] = args.words;
  const known = new Set(['name', 'team', 'access', 'expires', 'email', 'allow-duplicate', 'test']);
  for (const option of args.options.keys()) {
    if (!known.has(option)) throw new UsageError(`unknown option --${option}`);
  }
  const command = `${group ?? ''} ${action ?? ''}`;
  // Words past the command's own are refused, not ignored (`keys revoke <apiKeyId>` takes one, the others none).
  const words = command === 'keys revoke' ? 3 : 2;
  if (args.words.length > words) throw new UsageError(`unexpected argument ${args.words[words]}`);
  if (args.options.has('test') && command !== 'keys create' && command !== 'keys list')
    throw new UsageError('--test is only for keys create and keys list');
  switch (command) {
    case 'teams create': {
      const name = text(args.options, 'name', true) as string;
      // Team names are labels, not keys (CONTRACT "Running it": the command always prints the new team's line).
      // A name another team has is taken all the same, with a warning on stderr naming that team, since a second
      // key for it is more often what was meant.
      if (!args.options.has('allow-duplicate')) {
        const taken = (await keys.listTeams()).find((team) => team.name.toLowerCase() === name.toLowerCase());
        if (taken) {
          warn(
            `a team named "${taken.name}" already exists (teamId ${taken.teamId}); created another one. For a key ` +
              `of that team use keys create --team ${taken.teamId} (--allow-duplicate silences this warning)`,
          );
        }
      }
      return keys.createTeam(name);
    }
    case 'teams list':
      return keys.listTeams();
    case 'keys create': {
      const { teamId, apiKeyId, apiKey } = await keys.createKey(
        uuid(args.options.get('team'), '--team'),
        text(args.options, 'name', false),
        {
          access: access(args.options.get('access')),
          expiresAt: expiry(args.options.get('expires'), Date.now()),
          test: args.options.has('test'),
        },
      );
      // CONTRACT "Test mode": --test prints the usual shape with the live teamId; the sandbox's own id is not
      // part of it (its records and the reset's answer carry it).
      return { teamId, apiKeyId, apiKey };
    }
    case 'users create': {
      const team = uuid(args.options.get('team'), '--team');
      const email = text(args.options, 'email', true) as string;
      return accounts.createUser(team, email, await readPassword());
    }
    case 'keys list': {
      const team = uuid(args.options.get('team'), '--team');
      return keys.listKeys(args.options.has('test') ? await keys.sandboxOf(team) : team);
    }
    case 'keys revoke':
      return keys.revoke(uuid(target, 'apiKeyId'));
    default:
      throw new UsageError(`unknown command "${args.words.join(' ')}"`);
  }
}
