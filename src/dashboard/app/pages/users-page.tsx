import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type Json } from '../api.js';
import { etaText, tripFeatures, when } from '../features.js';
import { collection, type LonLat, lineFeature, pointFeature } from '../geo.js';
import { MapView } from '../map-view.js';
import { ErrorLine } from '../record.js';
import { Table } from '../table.js';

export function UsersPage() {
  const [users, setUsers] = useState<Json[]>([]);
  const [search, setSearch] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api('GET', '/v1/users?limit=1000').then(
      (r) => setUsers(r.users),
      (e) => setError(e.message),
    );
  }, []);
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return q
      ? users.filter((u) =>
          [u._id, u.userId, u.deviceId, u.description].some(
            (v) => typeof v === 'string' && v.toLowerCase().includes(q),
          ),
        )
      : users;
  }, [users, search]);
  return (
    <section class="page">
      <h1>Users</h1>
      <ErrorLine error={error} />
      <label for="user-search">Search by user id, device id or description</label>
      <input id="user-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      <Table
        class="table"
        caption={`${shown.length} users, most recently updated first`}
        columns={['User', 'Device', 'Updated', 'Geofences', 'Trip']}
      >
        {shown.map((u) => (
          <tr key={u._id}>
            <td>
              <a href={`#/users/${encodeURIComponent(u._id)}`}>{u.userId ?? u._id}</a>
            </td>
            <td>{u.deviceId}</td>
            <td>{when(u.updatedAt)}</td>
            <td>{(u.geofences ?? []).map((g: Json) => g.description).join(', ')}</td>
            <td>{u.trip ? `${u.trip.externalId} (${u.trip.status})` : ''}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

interface Fix {
  at: LonLat;
  time: number;
  source: string;
}

/**
 * One user: its location history on the map with a time slider, its events, trips and regions. The
 * API keeps no log of every track: the history is built from what it does keep, the locations of the
 * user's events, of its trips' paths and its last location.
 */
export function UserPage({ id }: { id: string }) {
  const [user, setUser] = useState<Json | null>(null);
  const [events, setEvents] = useState<Json[]>([]);
  const [trips, setTrips] = useState<Json[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [upTo, setUpTo] = useState<number | null>(null);

  useEffect(() => {
    api('GET', `/v1/users/${encodeURIComponent(id)}`).then(
      async (r) => {
        setUser(r.user);
        const [ev, tr] = await Promise.all([
          api('GET', `/v1/events?limit=1000&userId=${encodeURIComponent(r.user._id)}`),
          api(
            'GET',
            `/v1/trips?limit=100&sortBy=createdAt&includeLocations=true&userId=${encodeURIComponent(r.user._id)}`,
          ),
        ]);
        setEvents(ev.events);
        setTrips(tr.trips);
      },
      (e) => setError(e.message),
    );
  }, [id]);

  const history = useMemo(() => {
    const fixes: Fix[] = [];
    for (const e of events)
      if (e.location) fixes.push({ at: e.location.coordinates, time: Date.parse(e.createdAt), source: e.type });
    for (const t of trips)
      for (const l of t.locations ?? [])
        fixes.push({ at: l.coordinates, time: Date.parse(l.updatedAt), source: 'trip' });
    if (user?.location)
      fixes.push({ at: user.location.coordinates, time: Date.parse(user.updatedAt), source: 'last location' });
    fixes.sort((a, b) => a.time - b.time);
    // The same fix told by an event and a trip point is shown once.
    return fixes.filter((f, i) => i === 0 || f.time !== fixes[i - 1]!.time || f.at[0] !== fixes[i - 1]!.at[0]);
  }, [user, events, trips]);

  if (error)
    return (
      <section class="page">
        <ErrorLine error={error} />
      </section>
    );
  if (!user)
    return (
      <section class="page">
        <p>Loading…</p>
      </section>
    );

  const index = upTo === null ? history.length - 1 : Math.min(upTo, history.length - 1);
  const shown = history.slice(0, index + 1);
  const current = shown[shown.length - 1];
  const data = collection([
    ...(shown.length > 1 ? [lineFeature(shown.map((f) => f.at))] : []),
    ...shown.map((f, i) => pointFeature(f.at, { current: i === shown.length - 1 })),
  ]);

  return (
    <div class="with-map">
      <section class="side">
        <p>
          <a href="#/users">← All users</a>
        </p>
        <h1>User {user.userId ?? user._id}</h1>
        <dl class="facts">
          <dt>Device</dt>
          <dd>{user.deviceId}</dd>
          <dt>Last update</dt>
          <dd>{when(user.updatedAt)}</dd>
          <dt>Geofences</dt>
          <dd>{(user.geofences ?? []).map((g: Json) => g.description).join(', ') || 'none'}</dd>
          <dt>Regions</dt>
          <dd>
            {[user.country?.name, user.state?.name, user.dma?.name, user.postalCode?.code].filter(Boolean).join(', ') ||
              'none known'}
          </dd>
          <dt>Place</dt>
          <dd>{user.place?.name ?? 'none'}</dd>
          <dt>Trip</dt>
          <dd>{user.trip ? `${user.trip.externalId} (${user.trip.status}, ETA ${etaText(user.trip)})` : 'none'}</dd>
        </dl>
        <h2>Location history</h2>
        {history.length === 0 ? (
          <p>No locations kept for this user.</p>
        ) : (
          <>
            <label for="history-time">
              Time: up to fix {index + 1} of {history.length}
            </label>
            <input
              id="history-time"
              type="range"
              min={0}
              max={history.length - 1}
              value={index}
              onInput={(e) => setUpTo(Number(e.currentTarget.value))}
            />
            <p class="history-at" aria-live="polite">
              {current &&
                `${new Date(current.time).toISOString()} · ${current.source} · ${current.at[1].toFixed(5)}, ${current.at[0].toFixed(5)}`}
            </p>
          </>
        )}
        <h2>Events</h2>
        <ul class="list" aria-label="The user's events">
          {events.map((e) => (
            <li key={e._id}>
              <span class="name">{e.type}</span>{' '}
              <span class="meta">
                {e.geofence?.description ?? ''} · {when(e.createdAt)}
              </span>
            </li>
          ))}
        </ul>
        <h2>Trips</h2>
        <ul class="list" aria-label="The user's trips">
          {trips.map((t) => (
            <li key={t._id}>
              <span class="name">{t.externalId}</span>{' '}
              <span class="meta">
                {t.status} · ETA {etaText(t)}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <MapView
        label="The user's location history"
        data={{ history: data, trips: collection(trips.flatMap(tripFeatures)) }}
        fit={['history']}
      />
    </div>
  );
}
