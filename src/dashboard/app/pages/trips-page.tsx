import { useEffect, useState } from 'preact/hooks';
import { api, type Json } from '../api.js';
import { etaText, latenessText, when } from '../features.js';
import { ErrorLine } from '../record.js';
import { Table } from '../table.js';

function TripTable({ caption, trips }: { caption: string; trips: Json[] }) {
  return (
    <Table
      class="table trips"
      caption={caption}
      columns={['Trip', 'User', 'Destination', 'Status', 'ETA', 'Lateness', 'Started']}
    >
      {trips.map((t) => (
        <tr key={t._id}>
          <td>{t.externalId}</td>
          <td>
            {t.user?._id ? (
              <a href={`#/users/${encodeURIComponent(t.user._id)}`}>{t.userId ?? t.user.deviceId}</a>
            ) : (
              t.userId
            )}
          </td>
          <td>{t.destinationGeofenceTag ? `${t.destinationGeofenceTag}/${t.destinationGeofenceExternalId}` : ''}</td>
          <td>{t.status}</td>
          <td class="eta">{etaText(t)}</td>
          <td>{latenessText(t)}</td>
          <td>{when(t.startedAt ?? t.createdAt)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** Active trips (soonest ETA first) and recent ones, refreshed every 5 s. */
export function TripsPage() {
  const [active, setActive] = useState<Json[]>([]);
  const [recent, setRecent] = useState<Json[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const load = () => {
      api('GET', '/v1/trips?active=true&limit=100').then(
        (r) => setActive(r.trips),
        (e) => setError(e.message),
      );
      api('GET', '/v1/trips?active=false&sortBy=createdAt&limit=50').then(
        (r) => setRecent(r.trips),
        (e) => setError(e.message),
      );
    };
    load();
    const timer = setInterval(load, 5000);
    return () => clearInterval(timer);
  }, []);
  return (
    <section class="page">
      <h1>Trips</h1>
      <ErrorLine error={error} />
      <TripTable caption={`${active.length} active trips, soonest ETA first`} trips={active} />
      <TripTable caption={`${recent.length} recent trips that ended`} trips={recent} />
    </section>
  );
}
