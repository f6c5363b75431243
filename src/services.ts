import { BeaconService } from './domain/beacons/beacon-service.js';
import type { Clock } from './domain/clock.js';
import { GeofenceService } from './domain/geofences/geofence-service.js';
import { ProjectService } from './domain/projects/project-service.js';
import { SettingsService } from './domain/settings/settings-service.js';
import { UserService } from './domain/users/user-service.js';
import type { Store } from './storage/store.js';

/** The domain services over one store. */
export interface Services {
  projects: ProjectService;
  users: UserService;
  geofences: GeofenceService;
  beacons: BeaconService;
  settings: SettingsService;
}

export function createServices(store: Store, clock: Clock): Services {
  return {
    projects: new ProjectService(store.projects, clock),
    users: new UserService(store.users),
    geofences: new GeofenceService(store.geofences, store.users, clock),
    beacons: new BeaconService(store.beacons, clock),
    settings: new SettingsService(store.settings),
  };
}
