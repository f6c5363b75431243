import type { LocationEvent } from '../events/event.js';
import { updateEvent } from '../events/update-event.js';
import type { TrackContribution, TrackParticipant, TrackUpdate } from '../tracking/track-participant.js';
import { REGION_TYPES, type Region, type RegionType } from './region.js';
import type { RegionService } from './region-service.js';
import { regionTransitions, storedRegions } from './region-transitions.js';

/** Event type suffixes (ARCHITECTURE.md §5; the SDKs' names: `region_postal_code`, not `postalCode`). */
const EVENT_SUFFIX: Record<RegionType, string> = {
  country: 'country',
  state: 'state',
  dma: 'dma',
  postalCode: 'postal_code',
};

/**
 * The Regions feature's step of every track, for projects that enabled it: answers `user.country`,
 * `user.state`, `user.dma` and `user.postalCode`, and emits `user.exited_region_<type>` then
 * `user.entered_region_<type>` when the region of a type changed since the last update (kept in
 * `user.state.regions`; the first update enters every region). Without a pack it does nothing and keeps
 * the stored regions, so a server started before its pack was built does not make users leave them.
 */
export class RegionsTracker implements TrackParticipant {
  readonly name = 'regions';

  constructor(private readonly regions: RegionService) {}

  onTrack(update: TrackUpdate): TrackContribution {
    if (!update.project.features.regions) return { events: [] };
    // Found already by the jurisdiction check of the same request, or looked up now.
    const current = update.regions ?? this.regions.at(update.location);
    if (!current) return { events: [] };
    const t = regionTransitions(storedRegions(update.user.state.regions), current, update.at);
    const events = [
      ...t.exited.map((x) => this.event(update, 'exited', x.region, x.durationMinutes)),
      ...t.entered.map((r) => this.event(update, 'entered', r)),
    ];
    const userFields: Record<string, unknown> = {};
    for (const type of REGION_TYPES) if (current[type]) userFields[type] = current[type];
    return { events, userFields, state: { regions: t.next } };
  }

  private event(u: TrackUpdate, verb: 'entered' | 'exited', region: Region, durationMinutes?: number): LocationEvent {
    // Regions are tens of kilometres across: a fix is almost never in doubt about which one it is in.
    return updateEvent(u, `user.${verb}_region_${EVENT_SUFFIX[region.type]}`, 3, { region }, durationMinutes);
  }
}
