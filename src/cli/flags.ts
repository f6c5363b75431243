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

/**
 * `--remove <id>`, `--enable <id>` and `--disable <id>` applied to a project's list of webhooks or
 * destinations; an id that names none of them throws (`--remove must name one of the project's <what> by id.`).
 */
export function applyRemoveEnableDisable<T extends { id: string; enabled: boolean }>(
  current: T[],
  flags: Record<string, string | true>,
  what: string,
): T[] {
  let list = current;
  const known = (flag: string): string => {
    const id = flags[flag];
    if (typeof id !== 'string' || !list.some((x) => x.id === id)) {
      throw new Error(`--${flag} must name one of the project's ${what} by id.`);
    }
    return id;
  };
  if (flags.remove !== undefined) {
    const id = known('remove');
    list = list.filter((x) => x.id !== id);
  }
  for (const [flag, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    if (flags[flag] === undefined) continue;
    const id = known(flag);
    list = list.map((x) => (x.id === id ? { ...x, enabled } : x));
  }
  return list;
}
