import type { Store } from '../domain/ports/store.js';
import type { Project } from '../domain/projects/project.js';
import { newWebhook, type Webhook } from '../domain/webhooks/webhook.js';
import { applyRemoveEnableDisable, refuseUnknownFlags } from './flags.js';
import { changeProjectList, type ProjectListCommand } from './project-list-command.js';

/**
 * `projects webhooks <name> [--add <url> [--live] [--types a,b] [--mode single|multiple]] [--remove <id>] [--enable <id>]
 * [--disable <id>]`: changes the project's webhooks, then prints them as JSON. A secret is printed
 * whole only by the `--add` that made it; the list shows its last four characters.
 */
export const webhooksCommand: ProjectListCommand = (projects, name, flags, now) => {
  let added: Webhook | null = null;
  return changeProjectList(
    projects,
    name,
    'webhooks',
    (current) =>
      applyWebhookFlags(current, flags, now, (w) => {
        added = w;
      }),
    (w) => ({ ...w, secret: w === added ? w.secret : `…${w.secret.slice(-4)}` }),
  );
};

function applyWebhookFlags(
  current: Webhook[],
  flags: Record<string, string | true>,
  now: number,
  onAdd: (w: Webhook) => void,
): Webhook[] {
  let list = current;
  refuseUnknownFlags(flags, ['add', 'live', 'types', 'mode', 'remove', 'enable', 'disable'], 'webhooks');
  if (flags.add !== undefined) {
    if (flags.add === true) throw new Error('--add needs the URL to post events to.');
    const types = flags.types === undefined ? null : flags.types === true ? [] : flags.types.split(',');
    const mode = flags.mode === undefined ? undefined : flags.mode === true ? '' : flags.mode;
    const w = newWebhook(
      { url: flags.add, live: flags.live !== undefined, types, ...(mode === undefined ? {} : { mode }) },
      now,
    );
    onAdd(w);
    list = [...list, w];
  } else if (flags.types !== undefined || flags.live !== undefined || flags.mode !== undefined) {
    throw new Error('--types, --live and --mode go with --add.');
  }
  return applyRemoveEnableDisable(list, flags, 'webhooks');
}

/**
 * `projects deliveries <name> [--live] [--webhook <id> | --destination <id>] [--limit <n>]`: the newest
 * deliveries (to webhooks and destinations) of the project's test (or live) environment, a line each.
 */
export async function deliveriesCommand(
  store: Store,
  project: Project,
  flags: Record<string, string | true>,
): Promise<{ out: string }> {
  refuseUnknownFlags(flags, ['live', 'webhook', 'destination', 'limit'], 'deliveries');
  if (flags.webhook === true) throw new Error("--webhook needs the id of one of the project's webhooks.");
  if (flags.destination === true) throw new Error("--destination needs the id of one of the project's destinations.");
  const limit = flags.limit === undefined ? 50 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error('--limit must be a whole number 1-1000.');
  // Webhooks and destinations share the outbox and one id space: either flag names the rows' target.
  const target = flags.webhook ?? flags.destination;
  const webhookId = typeof target === 'string' ? target : undefined;
  const rows = await store.deliveries.list(
    { projectId: project.id, live: flags.live !== undefined },
    { limit, ...(webhookId === undefined ? {} : { webhookId }) },
  );
  const destinations = new Set((project.destinations ?? []).map((d) => d.id));
  const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
  const lines = rows.map((d) =>
    [
      d.id,
      `${destinations.has(d.webhookId) ? 'destination' : 'webhook'} ${d.webhookId}`,
      `event ${d.eventId}`,
      d.status,
      `attempts ${d.attempts}`,
      `last ${d.lastStatus ?? '-'} ${d.lastError ?? ''}`.trim(),
      `next ${iso(d.nextAttemptAt)}`,
      `created ${iso(d.createdAt)}`,
    ].join('\t'),
  );
  return { out: lines.length ? `${lines.join('\n')}\n` : 'no deliveries\n' };
}
