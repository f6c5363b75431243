import { BrokerPool } from './destinations/broker-pool.js';
import { BeaconService } from './domain/beacons/beacon-service.js';
import type { Clock } from './domain/clock.js';
import { ContextService } from './domain/context/context-service.js';
import { DeviceLogService } from './domain/device-logs/device-log-service.js';
import { EventService } from './domain/events/event-service.js';
import { EventStreams } from './domain/events/event-stream.js';
import { GeocodingService } from './domain/geocoding/geocoding-service.js';
import { GeofenceService } from './domain/geofences/geofence-service.js';
import { JurisdictionService } from './domain/jurisdiction/jurisdiction-service.js';
import { PlaceService } from './domain/places/place-service.js';
import type { Store } from './domain/ports/store.js';
import { PreflightPolicy } from './domain/projects/preflight-policy.js';
import { ProjectService } from './domain/projects/project-service.js';
import { RegionService } from './domain/regions/region-service.js';
import { RetentionService } from './domain/retention/retention-service.js';
import { SdkSettingsService } from './domain/sdk/sdk-settings-service.js';
import { GeofenceSearch } from './domain/search/geofence-search.js';
import { reportDeletes } from './domain/search/report-deletes.js';
import { UserLocationRegistry } from './domain/search/user-location-registry.js';
import { UserSearch } from './domain/search/user-search.js';
import { SettingsService } from './domain/settings/settings-service.js';
import { GeofenceIndexRegistry } from './domain/tracking/geofence-index-registry.js';
import { type TrackWire, trackPipeline } from './domain/tracking/pipeline.js';
import { TrackingService } from './domain/tracking/tracking-service.js';
import { TripEngine } from './domain/trips/trip-engine.js';
import { TripService } from './domain/trips/trip-service.js';
import { UserService } from './domain/users/user-service.js';
import { VerifiedLocationService } from './domain/verified/verified-location.js';
import { DEFAULT_DELIVERY_POLICY, DeliveryService } from './domain/webhooks/delivery-service.js';
import { TreeBuildThread } from './geo/tree-build-thread.js';
import type { PackSource } from './geodata/live-pack.js';
import { RoadIsochrones } from './routing/isochrone.js';
import { RoadRouter } from './routing/road-router.js';
import { httpSender } from './webhooks/http-sender.js';

/** The domain services over one store. */
export interface Services {
  projects: ProjectService;
  users: UserService;
  geofences: GeofenceService;
  beacons: BeaconService;
  settings: SettingsService;
  /** Remote tracking options, SDK configuration and feature settings (meta of /config and track). */
  sdkSettings: SdkSettingsService;
  /** Jurisdiction lists: 451 refusals and the answer's allowed / buffer / exclusion fields. */
  jurisdiction: JurisdictionService;
  /** Which origins CORS preflights are answered for, under the projects' key restrictions. */
  preflight: PreflightPolicy;
  /** Verified location tokens and each environment's signing key. */
  verified: VerifiedLocationService;
  tracking: TrackingService;
  events: EventService;
  /** Live event streams (GET /v1/events/stream), bounded per tenant. */
  eventStreams: EventStreams;
  /** The SDKs' debug logs, bounded per device. */
  deviceLogs: DeviceLogService;
  context: ContextService;
  geofenceSearch: GeofenceSearch;
  userSearch: UserSearch;
  trips: TripService;
  /** Per-tenant geofence spatial indexes, kept in step with geofence writes. */
  geofenceIndexes: GeofenceIndexRegistry;
  /** Per-tenant user location indexes, moved by every track. */
  userLocations: UserLocationRegistry;
  /** Forward, reverse and IP geocoding and autocomplete over the reference pack. */
  geocoding: GeocodingService;
  /** Country, state, DMA and postal code at a point (context and the Regions feature). */
  regions: RegionService;
  /** Places of imported OSM regions: search places, context.place and the Places feature. */
  places: PlaceService;
  /** Routes on the imported road graphs, estimates outside them (route endpoints, trip ETAs). */
  router: RoadRouter;
  /** Removes events, stopped trips and users older than their project keeps them. */
  retention: RetentionService;
  /** Sends the outbox: webhooks and destinations. */
  deliveries: DeliveryService;
  /** The destinations' broker connections, closed after the outbox's last pass. */
  brokers: BrokerPool;
}

/** A server without reference data: geodata endpoints answer 503, context and track leave regions out. */
const NO_PACK: PackSource = { current: () => null, unavailableReason: () => 'no geodata pack configured' };

export function createServices(store: Store, clock: Clock, wire: TrackWire, packs: PackSource = NO_PACK): Services {
  const router = new RoadRouter(packs);
  const geofences = new GeofenceService(store.geofences, store.users, clock, new RoadIsochrones(router));
  const geofenceIndexes = new GeofenceIndexRegistry(
    store.geofences,
    () => store.syncExternalChanges(),
    new TreeBuildThread().build,
  );
  geofences.onChange((tenant, change) => geofenceIndexes.apply(tenant, change));
  const userLocations = new UserLocationRegistry(store.users, () => store.syncExternalChanges());
  const geocoding = new GeocodingService(packs);
  const tripEngine = new TripEngine({
    trips: store.trips,
    users: store.users,
    geofences: store.geofences,
    router,
    fenceByTag: (tenant, tag, externalId) => geofenceIndexes.byTag(tenant, tag, externalId),
    clock,
    locate: (address) => locateAddress(geocoding, address),
    snapshot: wire.trip,
  });
  const regions = new RegionService(packs);
  const settings = new SettingsService(store.settings);
  const places = new PlaceService(packs);
  const pipeline = trackPipeline({ trips: tripEngine, regions, places, settings, beacons: store.beacons, wire });
  const tracking = new TrackingService(store.users, geofenceIndexes, clock, pipeline);
  tracking.onTracked((tenant, user) => userLocations.update(tenant, user));
  // User search keeps stored users: deletions (by the API or by retention) must reach it.
  const brokers = new BrokerPool();
  const users = reportDeletes(store.users, (tenant) => userLocations.deleted(tenant));
  const sdkSettings = new SdkSettingsService(store.settings, () => store.syncExternalChanges());
  return {
    projects: new ProjectService(store.projects, clock),
    users: new UserService(users),
    geofences,
    beacons: new BeaconService(store.beacons, clock),
    settings,
    sdkSettings,
    jurisdiction: new JurisdictionService(sdkSettings, packs, geofenceIndexes, clock),
    preflight: new PreflightPolicy(
      {
        // Every environment of every project: one with no restrictions keeps every origin open.
        all: async () => {
          const tenants = (await store.projects.list()).flatMap((p) =>
            [false, true].map((live) => ({ projectId: p.id, live })),
          );
          return Promise.all(tenants.map(async (t) => (await sdkSettings.get(t))?.keyRestrictions));
        },
        generation: () => sdkSettings.generation,
      },
      () => clock.now(),
    ),
    verified: new VerifiedLocationService(store.settings, clock),
    tracking,
    events: new EventService(store.events, store.users, clock),
    eventStreams: new EventStreams(store.events),
    deviceLogs: new DeviceLogService(store.deviceLogs, clock),
    context: new ContextService(geofenceIndexes, clock, regions, { places, settings }),
    geofenceSearch: new GeofenceSearch(geofenceIndexes, clock),
    userSearch: new UserSearch(store.users, userLocations, geofenceIndexes, clock, router),
    trips: new TripService(tripEngine),
    geofenceIndexes,
    userLocations,
    geocoding,
    regions,
    places,
    router,
    retention: new RetentionService(
      { projects: store.projects, events: store.events, trips: store.trips, users, deliveries: store.deliveries },
      clock,
    ),
    deliveries: new DeliveryService(store, httpSender(clock), clock, DEFAULT_DELIVERY_POLICY, brokers.publish),
    brokers,
  };
}

/** Keeps the in-memory indexes in step with writes by other processes; returns an unsubscribe. */
export function followExternalChanges(store: Store, services: Services): () => void {
  return store.onExternalChange((change) => {
    services.geofenceIndexes.storeChanged(change);
    services.userLocations.storeChanged(change);
    services.sdkSettings.storeChanged(change);
  });
}

/** An address's point from the pack (its best match), null without a pack or a match: a trip leg goes without. */
function locateAddress(geocoding: GeocodingService, address: string): [number, number] | null {
  try {
    const [best] = geocoding.forward(address);
    return best ? [best.longitude, best.latitude] : null;
  } catch {
    return null;
  }
}
