import { useEffect, useState } from 'preact/hooks';
import { api, type Json, streamEvents } from '../api.js';
import { geofenceFeature, placeFeature, tripFeatures, userFeature } from '../features.js';
import { collection, type Feature } from '../geo.js';
import { MapView, type Picked } from '../map-view.js';
import { ErrorLine, RecordPanel } from '../record.js';

const nonNull = <T,>(x: T | null): x is T => x !== null;

/** Everything at once: geofences, users at their last location (as their events stream in), active trips. */
export function MapPage() {
  const [geofences, setGeofences] = useState<Json[]>([]);
  const [users, setUsers] = useState<Json[]>([]);
  const [trips, setTrips] = useState<Json[]>([]);
  const [picked, setPicked] = useState<{ title: string; record: Json } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(false);

  useEffect(() => {
    api('GET', '/v1/geofences?limit=1000').then(
      (r) => setGeofences(r.geofences),
      (e) => setError(e.message),
    );
    const refresh = () => {
      api('GET', '/v1/users?limit=1000').then(
        (r) => setUsers(r.users),
        (e) => setError(e.message),
      );
      api('GET', '/v1/trips?active=true&includeLocations=true&limit=100').then(
        (r) => setTrips(r.trips),
        (e) => setError(e.message),
      );
    };
    refresh();
    // Users move as their events arrive on the live stream (a refresh shortly after each burst of
    // events); a track that causes no event is not streamed, so a slow poll still catches those.
    let soon: ReturnType<typeof setTimeout> | undefined;
    const stopStream = streamEvents('', {
      onEvent: () => {
        clearTimeout(soon);
        soon = setTimeout(refresh, 300);
      },
      onState: (state) => setLive(state === 'open'),
    });
    const timer = setInterval(refresh, 30_000);
    return () => {
      stopStream();
      clearTimeout(soon);
      clearInterval(timer);
    };
  }, []);

  const pick = ({ properties }: Picked) => {
    const id = properties.id as string;
    if (properties.kind === 'geofence')
      setPicked({ title: `Geofence ${properties.description}`, record: geofences.find((g) => g._id === id) });
    else if (properties.kind === 'user')
      setPicked({ title: `User ${properties.userId || properties.deviceId}`, record: users.find((u) => u._id === id) });
    else if (properties.kind === 'trip')
      setPicked({ title: `Trip ${properties.externalId}`, record: trips.find((t) => t._id === id) });
    else if (properties.kind === 'place')
      setPicked({ title: `Place ${properties.name}`, record: users.find((u) => u.place?._id === id)?.place });
  };

  return (
    <div class="with-map">
      <section class="side">
        <h1>Map</h1>
        <ErrorLine error={error} />
        <p>
          {geofences.length} geofences, {users.length} users, {trips.length} active trips. Click anything on the map for
          its record.
        </p>
        <p class="stream-state">{live ? 'Following the live event stream.' : 'Refreshed every 30 s.'}</p>
        <ul class="legend">
          <li>
            <span class="swatch fence" /> geofence
          </li>
          <li>
            <span class="swatch user" /> user (last location)
          </li>
          <li>
            <span class="swatch trip" /> trip route and destination
          </li>
          <li>
            <span class="swatch place" /> place
          </li>
        </ul>
        {picked && <RecordPanel title={picked.title} record={picked.record} onClose={() => setPicked(null)} />}
      </section>
      <MapView
        label="Map of geofences, users and trips"
        data={{
          geofences: collection(geofences.map(geofenceFeature)),
          users: collection(users.map(userFeature).filter(nonNull)),
          places: collection(users.map(placeFeature).filter(nonNull)),
          trips: collection(trips.flatMap(tripFeatures) as Feature[]),
        }}
        fit={['geofences', 'users']}
        // Fitted again as each kind first arrives, so the view holds both whichever answers first.
        fitKey={`${geofences.length > 0}-${users.length > 0}`}
        onPick={pick}
      />
    </div>
  );
}
