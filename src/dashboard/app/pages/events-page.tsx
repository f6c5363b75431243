import { useEffect, useState } from 'preact/hooks';
import { api, type Json, streamEvents } from '../api.js';
import { when } from '../features.js';
import { Table } from '../table.js';

/** The project's events as they happen (`GET /v1/events/stream`), newest first, after the latest stored ones. */
export function EventsPage() {
  const [events, setEvents] = useState<Json[]>([]);
  const [state, setState] = useState('connecting');
  const [detail, setDetail] = useState<string | null>(null);
  const [types, setTypes] = useState('');
  const [userId, setUserId] = useState('');
  const [filter, setFilter] = useState({ types: '', userId: '' });

  useEffect(() => {
    setEvents([]);
    const q = new URLSearchParams();
    if (filter.types) q.set('types', filter.types);
    if (filter.userId) q.set('userId', filter.userId);
    const query = q.toString() ? `?${q}` : '';
    return streamEvents(query, {
      onEvent: (e) => setEvents((list) => (list.some((x) => x._id === e._id) ? list : [e, ...list].slice(0, 500))),
      onState: (s, d) => {
        setState(s);
        setDetail(d ?? null);
        if (s === 'unavailable') {
          // Without the stream, show the latest stored events once.
          const stored = new URLSearchParams({ limit: '100' });
          if (filter.types) stored.set('type', filter.types);
          if (filter.userId) stored.set('userId', filter.userId);
          api('GET', `/v1/events?${stored}`).then(
            (r) => setEvents(r.events),
            () => {},
          );
        }
      },
    });
  }, [filter]);

  return (
    <section class="page">
      <h1>Events</h1>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ types, userId });
        }}
        aria-label="Filter events"
      >
        <span>
          <label for="event-types">Types (comma-separated)</label>
          <input
            id="event-types"
            value={types}
            onInput={(e) => setTypes(e.currentTarget.value)}
            placeholder="user.entered_geofence"
          />
        </span>
        <span>
          <label for="event-user">User</label>
          <input id="event-user" value={userId} onInput={(e) => setUserId(e.currentTarget.value)} />
        </span>
        <button type="submit">Apply</button>
      </form>
      <p class={`stream-state ${state}`} role="status">
        Live stream: {state === 'open' ? 'connected' : state}
        {detail ? ` — ${detail}` : ''}
      </p>
      <Table
        class="table"
        caption={`${events.length} events, newest first`}
        columns={['Type', 'User', 'Geofence', 'Time']}
        bodyClass="event-rows"
      >
        {events.map((e) => (
          <tr key={e._id}>
            <td class="event-type">{e.type}</td>
            <td>{e.user?.userId ?? e.user?.deviceId}</td>
            <td>{e.geofence?.description ?? ''}</td>
            <td>{when(e.createdAt)}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
