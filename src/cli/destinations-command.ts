import { type Destination, newDestination } from '../domain/destinations/destination.js';
import { applyRemoveEnableDisable, refuseUnknownFlags } from './flags.js';
import { changeProjectList, type ProjectListCommand } from './project-list-command.js';

const FLAGS = ['add', 'live', 'types', 'block-tags', 'block-metadata', 'remove', 'enable', 'disable'];

/**
 * `projects destinations <name> [--add <url> [--live] [--types a,b] [--block-tags t,u] [--block-metadata k,l]]
 * [--remove <id>] [--enable <id>] [--disable <id>]`: changes the project's destinations (message
 * brokers), then prints them as JSON, passwords in their URLs masked.
 */
export const destinationsCommand: ProjectListCommand = (projects, name, flags, now) =>
  changeProjectList(
    projects,
    name,
    'destinations',
    (current) => applyDestinationFlags(current, flags, now),
    (d) => ({ ...d, url: maskPassword(d.url) }),
  );

function applyDestinationFlags(
  current: Destination[],
  flags: Record<string, string | true>,
  now: number,
): Destination[] {
  refuseUnknownFlags(flags, FLAGS, 'destinations');
  let list = current;
  const listFlag = (flag: string): string[] | undefined => {
    const v = flags[flag];
    if (v === undefined) return undefined;
    if (v === true) throw new Error(`--${flag} needs a comma-separated list.`);
    return v.split(',').map((x) => x.trim());
  };
  if (flags.add !== undefined) {
    if (flags.add === true)
      throw new Error('--add needs the URL of the broker, such as redis://host:6379/?stream=events.');
    const types = flags.types === undefined ? null : flags.types === true ? [] : flags.types.split(',');
    const blockedTags = listFlag('block-tags');
    const blockedMetadataKeys = listFlag('block-metadata');
    list = [
      ...list,
      newDestination(
        {
          url: flags.add,
          live: flags.live !== undefined,
          types,
          ...(blockedTags ? { blockedTags } : {}),
          ...(blockedMetadataKeys ? { blockedMetadataKeys } : {}),
        },
        now,
      ),
    ];
  } else if (['types', 'live', 'block-tags', 'block-metadata'].some((f) => flags[f] !== undefined)) {
    throw new Error('--types, --live, --block-tags and --block-metadata go with --add.');
  }
  return applyRemoveEnableDisable(list, flags, 'destinations');
}

/** The URL with its password replaced, for printing. */
export function maskPassword(url: string): string {
  const u = new URL(url);
  if (!u.password) return url;
  u.password = '***';
  return u.toString();
}
