import { ApiKeysService, isUuid } from '@app/common';

export class UsageError extends Error {}

export const USAGE = `Usage:
  cli teams create --name <team name>
  cli keys create --team <teamId> [--name <label>]
  cli keys list --team <teamId>
  cli keys revoke <apiKeyId>`;

export interface ParsedArgs {
  words: string[];
  options: Map<string, string>;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--')) {
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

/** Runs one command and returns what to print as one JSON line. */
export async function runCommand(args: ParsedArgs, keys: ApiKeysService): Promise<unknown> {
  const [group, action, target] = args.words;
  const known = new Set(['name', 'team']);
  for (const option of args.options.keys()) {
    if (!known.has(option)) throw new UsageError(`unknown option --${option}`);
  }
  switch (`${group ?? ''} ${action ?? ''}`) {
    case 'teams create':
      return keys.createTeam(text(args.options, 'name', true) as string);
    case 'keys create':
      return keys.createKey(uuid(args.options.get('team'), '--team'), text(args.options, 'name', false));
    case 'keys list':
      return keys.listKeys(uuid(args.options.get('team'), '--team'));
    case 'keys revoke':
      return keys.revoke(uuid(target, 'apiKeyId'));
    default:
      throw new UsageError(`unknown command "${args.words.join(' ')}"`);
  }
}
