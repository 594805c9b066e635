/** `--name value`, `--name=value` and bare `--flag`; anything else is an error, so typos do not pass silently. */
export function parseArgs(argv: string[], known: Record<string, 'flag' | 'value'>): Map<string, string> {
  const found = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    const kind = match ? known[match[1]] : undefined;
    if (!match || !kind)
      throw new Error(
        `unknown argument ${argv[i]} (known: ${Object.keys(known)
          .map((k) => `--${k}`)
          .join(', ')})`,
      );
    if (kind === 'flag') {
      found.set(match[1], 'true');
    } else {
      const value = match[2] ?? argv[++i];
      if (value === undefined) throw new Error(`--${match[1]} needs a value`);
      found.set(match[1], value);
    }
  }
  return found;
}

export function numberArg(
  args: Map<string, string>,
  name: string,
  fallback: number,
  check: (n: number) => boolean,
): number {
  const raw = args.get(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !check(value)) throw new Error(`--${name} ${raw} is not valid`);
  return value;
}
