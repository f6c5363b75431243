/** Splits `a b --flag value --switch` into positional words and flags (a flag with no value is `true`). */
export function parseFlags(args: string[]): { positional: string[]; flags: Record<string, string | true> } {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--')) {
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        flags[a.slice(2)] = next;
        i++;
      } else flags[a.slice(2)] = true;
    } else positional.push(a);
  }
  return { positional, flags };
}

/** Throws, naming the first flag of `flags` not in `allowed` (`--x is not a <what> option.`). */
export function refuseUnknownFlags(
  flags: Record<string, string | true>,
  allowed: readonly string[],
  what: string,
): void {
  const unknown = Object.keys(flags).find((f) => !allowed.includes(f));
  if (unknown !== undefined) throw new Error(`--${unknown} is not a ${what} option.`);
}
