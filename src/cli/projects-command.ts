import { openStore } from '../compose.js';
import type { Config } from '../config.js';
import { systemClock } from '../domain/clock.js';
import type { Project } from '../domain/projects/project.js';
import { ProjectService } from '../domain/projects/project-service.js';
import { monthOf } from '../domain/projects/usage-meter.js';
import { retentionOf } from '../domain/retention/retention.js';
import { sdkSettingsJson } from '../domain/sdk/sdk-settings.js';
import { SdkSettingsService } from '../domain/sdk/sdk-settings-service.js';
import { parseSegments } from '../domain/segments/segment.js';
import { destinationsCommand } from './destinations-command.js';
import { parseFlags } from './flags.js';
import { applyProjectSettings } from './project-settings.js';
import { splitSdkFlags } from './sdk-settings-flags.js';
import { deliveriesCommand, webhooksCommand } from './webhooks-command.js';

export async function projectsCommand(config: Config, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { positional, flags } = parseFlags(rest);
  const store = await openStore(config);
  const projects = new ProjectService(store.projects, systemClock);
  try {
    switch (sub) {
      case 'create': {
        const name = positional[0];
        if (!name) return fail('projects create needs a name: npm run cli -- projects create <name> [--json]');
        const { project, keys } = await projects.create(name);
        if (flags.json !== undefined) process.stdout.write(`${JSON.stringify({ projectId: project.id, keys })}\n`);
        else
          process.stdout.write(
            `Created project "${name}" (${project.id}). Keys, shown only this once:\n${JSON.stringify(keys, null, 2)}\n`,
          );
        return 0;
      }
      case 'list': {
        for (const p of await projects.list()) process.stdout.write(`${describe(p)}\n`);
        return 0;
      }
      case 'set': {
        const name = positional[0];
        if (!name) return fail('projects set needs a name.');
        // Every flag is checked before anything is written.
        const sdk = splitSdkFlags(flags);
        const found = await projects.find(name);
        if (!found) return fail(`No project named "${name}".`);
        applyProjectSettings(found, sdk.rest);
        const updated =
          Object.keys(sdk.rest).length > 0
            ? await projects.update(name, (p) => applyProjectSettings(p, sdk.rest))
            : found;
        if (!updated) return fail(`No project named "${name}".`);
        process.stdout.write(`${describe(updated)}\n`);
        if (sdk.patch) {
          const service = new SdkSettingsService(store.settings);
          for (const live of sdk.live) {
            const next = await service.patch({ projectId: updated.id, live }, sdk.patch);
            process.stdout.write(`${live ? 'live' : 'test'} SDK settings: ${JSON.stringify(sdkSettingsJson(next))}\n`);
          }
        }
        return 0;
      }
      case 'usage': {
        const project = positional[0] ? await projects.find(positional[0]) : null;
        if (!project) return fail(`No project named "${positional[0] ?? ''}".`);
        const month = typeof flags.month === 'string' ? flags.month : monthOf(Date.now());
        const rows = await store.usage.monthTable(project.id, month);
        const total = rows.reduce((n, r) => n + r.count, 0);
        for (const r of rows) process.stdout.write(`${r.live ? 'live' : 'test'}\t${r.endpoint}\t${r.count}\n`);
        const billable = Math.max(0, total - 100_000);
        process.stdout.write(
          `total ${total} requests in ${month}; cost $${((billable / 1000) * 0.5).toFixed(2)} (100,000 free, $0.50 per 1,000 beyond)\n`,
        );
        return 0;
      }
      case 'segments': {
        // Prints the project's segments as JSON; --set '<JSON array>' replaces them, --clear removes them.
        const name = positional[0];
        if (!name) return fail("projects segments needs a name: projects segments <name> [--set '<json>' | --clear]");
        let project = await projects.find(name);
        if (!project) return fail(`No project named "${name}".`);
        if (flags.set !== undefined || flags.clear !== undefined) {
          const segments = flags.clear !== undefined ? [] : parseSegments(flags.set === true ? '' : flags.set, '--set');
          project = (await projects.setSegments(name, segments)) ?? project;
        }
        process.stdout.write(`${JSON.stringify(project.segments ?? [], null, 2)}\n`);
        return 0;
      }
      case 'webhooks': {
        const name = positional[0];
        if (!name) return fail('projects webhooks needs a name: projects webhooks <name> [--add <url> ...]');
        process.stdout.write((await webhooksCommand(projects, name, flags, Date.now())).out);
        return 0;
      }
      case 'destinations': {
        const name = positional[0];
        if (!name) return fail('projects destinations needs a name: projects destinations <name> [--add <url> ...]');
        process.stdout.write((await destinationsCommand(projects, name, flags, Date.now())).out);
        return 0;
      }
      case 'deliveries': {
        const project = positional[0] ? await projects.find(positional[0]) : null;
        if (!project) return fail(`No project named "${positional[0] ?? ''}".`);
        process.stdout.write((await deliveriesCommand(store, project, flags)).out);
        return 0;
      }
      case 'logs': {
        // The SDKs' debug logs of one device (POST /v1/logs), oldest first, one line each.
        const project = positional[0] ? await projects.find(positional[0]) : null;
        if (!project) return fail(`No project named "${positional[0] ?? ''}".`);
        if (typeof flags.device !== 'string')
          return fail('projects logs needs --device <deviceId> [--live] [--limit n]');
        const limit = flags.limit === undefined ? 1000 : Number(flags.limit);
        if (!Number.isInteger(limit) || limit < 1) return fail('--limit must be a whole number above 0.');
        const tenant = { projectId: project.id, live: flags.live !== undefined };
        for (const l of await store.deviceLogs.list(tenant, flags.device, limit)) {
          const at = new Date(l.createdAt).toISOString();
          process.stdout.write(`${at}\t${l.level}\t${l.type ?? '-'}\t${l.message.replace(/\s*\n\s*/g, ' ')}\n`);
        }
        return 0;
      }
      default:
        return fail(
          'projects needs one of: create, list, set, usage, segments, webhooks, destinations, deliveries, logs.',
        );
    }
  } catch (err) {
    return fail((err as Error).message);
  } finally {
    await store.close();
  }
}

function describe(p: Project): string {
  const features = Object.entries(p.features)
    .filter(([, on]) => on)
    .map(([f]) => f);
  const keep = retentionOf(p);
  const days = (d: number | null) => (d === null ? 'forever' : `${d}d`);
  return `${p.name}\t${p.id}\t${p.disabled ? 'disabled' : 'enabled'}\t${p.limits.requestsPerSecond} req/s\tquota ${p.limits.monthlyQuota ?? 'none'}\tfeatures ${features.join(',') || 'none'}\tkeeps events ${days(keep.eventsDays)}, trips ${days(keep.tripsDays)}, users ${days(keep.usersDays)}`;
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 2;
}
