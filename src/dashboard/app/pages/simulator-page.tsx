import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Json, session } from '../api.js';
import { CoordinateInputs } from '../coordinate-inputs.js';
import { geofenceFeature } from '../features.js';
import { collection, distanceMeters, type LonLat, lineFeature, pointFeature, pointsAlong } from '../geo.js';
import { MapView } from '../map-view.js';
import { ErrorLine } from '../record.js';

/** The server takes one track a second per device: the simulator sends one a little more often than that. */
const TRACK_INTERVAL_MS = 1100;

interface Sent {
  n: number;
  at: LonLat;
  events: Json[];
}

/**
 * Sends real tracks as a device would, with the publishable key (else the secret key, which may call
 * every publishable endpoint): one where the map is clicked, or one a second along a road route (the
 * routing API; a straight line where it has no road graph) between two clicks at a chosen speed.
 */
export function SimulatorPage() {
  const [deviceId, setDeviceId] = useState('simulator-1');
  const [userId, setUserId] = useState('');
  const [mode, setMode] = useState<'click' | 'drive'>('click');
  const [speed, setSpeed] = useState(50);
  const [origin, setOrigin] = useState<LonLat | null>(null);
  const [path, setPath] = useState<LonLat[]>([]);
  const [position, setPosition] = useState<LonLat | null>(null);
  const [sent, setSent] = useState<Sent[]>([]);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fences, setFences] = useState<Json[]>([]);
  /** The position typed into the form, `[lon, lat]`, as text. */
  const [typed, setTyped] = useState<[string, string]>(['', '']);
  const driving = useRef<AbortController | null>(null);
  const count = useRef(0);

  useEffect(() => {
    api('GET', '/v1/geofences?limit=1000').then(
      (r) => setFences(r.geofences),
      () => {},
    );
    return () => driving.current?.abort();
  }, []);

  const key = session.publishable() ?? session.secret();
  const track = async (at: LonLat): Promise<void> => {
    setPosition(at);
    const r = await api('POST', '/v1/track', {
      key,
      json: {
        deviceId,
        ...(userId ? { userId } : {}),
        latitude: at[1],
        longitude: at[0],
        accuracy: 10,
        foreground: true,
        stopped: false,
        deviceType: 'Web',
      },
    });
    const n = ++count.current;
    setSent((list) => [{ n, at, events: r.events ?? [] }, ...list].slice(0, 200));
  };

  const trackOnce = async (at: LonLat) => {
    setError(null);
    try {
      await track(at);
      setStatus(`Sent a track at ${at[1].toFixed(5)}, ${at[0].toFixed(5)}.`);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  /** The road route from `a` to `b` by the routing API, or the straight line when it has none. */
  const routeBetween = async (a: LonLat, b: LonLat): Promise<{ line: LonLat[]; road: boolean }> => {
    try {
      const q = new URLSearchParams({
        origin: `${a[1]},${a[0]}`,
        destination: `${b[1]},${b[0]}`,
        modes: 'car',
        units: 'metric',
        geometry: 'linestring',
      });
      const r = await api('GET', `/v1/route/distance?${q}`, { key });
      const coords = r.routes?.car?.geometry?.coordinates as LonLat[] | undefined;
      if (coords && coords.length > 1) return { line: [a, ...coords, b], road: true };
    } catch {
      // No road graph for this area: drive the straight line.
    }
    return { line: [a, b], road: false };
  };

  const drive = async (a: LonLat, b: LonLat) => {
    setError(null);
    const { line, road } = await routeBetween(a, b);
    setPath(line);
    const step = (speed / 3.6) * (TRACK_INTERVAL_MS / 1000);
    const points = pointsAlong(line, step);
    const stop = new AbortController();
    driving.current = stop;
    const total = Math.round(line.slice(1).reduce((m, p, i) => m + distanceMeters(line[i]!, p), 0));
    try {
      for (let i = 0; i < points.length && !stop.signal.aborted; i++) {
        setStatus(
          `Driving ${road ? 'the road route' : 'a straight line (no road route here)'} of ${total} m at ${speed} km/h: track ${i + 1} of ${points.length}.`,
        );
        const started = Date.now();
        await track(points[i]!);
        const wait = TRACK_INTERVAL_MS - (Date.now() - started);
        if (i < points.length - 1 && wait > 0) await new Promise((ok) => setTimeout(ok, wait));
      }
      setStatus(stop.signal.aborted ? 'Stopped.' : `Arrived after ${points.length} tracks.`);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      driving.current = null;
    }
  };

  const onMapClick = (at: LonLat) => {
    if (driving.current) return;
    if (mode === 'click') return void trackOnce(at);
    if (!origin) {
      setOrigin(at);
      setPath([]);
      setStatus('Start set: click the destination.');
      return;
    }
    setOrigin(null);
    void drive(origin, at);
  };

  const sim = collection([
    ...(path.length > 1 ? [lineFeature(path)] : []),
    ...(origin ? [pointFeature(origin)] : []),
    ...(position ? [pointFeature(position)] : []),
  ]);

  return (
    <div class="with-map">
      <section class="side">
        <h1>Simulator</h1>
        <p class="hint">
          Tracks are sent with the {session.publishable() ? 'publishable' : 'secret'} key, as a device would send them.
        </p>
        <div class="row">
          <span>
            <label for="sim-device">Device id</label>
            <input id="sim-device" value={deviceId} onInput={(e) => setDeviceId(e.currentTarget.value)} />
          </span>
          <span>
            <label for="sim-user">User id (optional)</label>
            <input id="sim-user" value={userId} onInput={(e) => setUserId(e.currentTarget.value)} />
          </span>
        </div>
        <fieldset>
          <legend>On a map click</legend>
          <label>
            <input type="radio" name="sim-mode" checked={mode === 'click'} onChange={() => setMode('click')} />
            Send one track there
          </label>
          <label>
            <input
              type="radio"
              name="sim-mode"
              checked={mode === 'drive'}
              onChange={() => {
                setMode('drive');
                setOrigin(null);
              }}
            />
            Drive between two clicks
          </label>
        </fieldset>
        <label for="sim-speed">Speed (km/h)</label>
        <input
          id="sim-speed"
          type="number"
          min={1}
          max={2000}
          value={speed}
          onInput={(e) => setSpeed(Number(e.currentTarget.value) || 50)}
        />
        <form
          class="row"
          aria-label="Send a track at coordinates"
          onSubmit={(e) => {
            e.preventDefault();
            void trackOnce([Number(typed[0]), Number(typed[1])]);
          }}
        >
          <CoordinateInputs
            idPrefix="sim"
            required
            value={typed}
            onEdit={(i, text) => setTyped(i === 0 ? [text, typed[1]] : [typed[0], text])}
          />
          <button type="submit">Send track</button>
        </form>
        {driving.current && (
          <button type="button" onClick={() => driving.current?.abort()}>
            Stop driving
          </button>
        )}
        <p class="sim-status" role="status">
          {status}
        </p>
        <ErrorLine error={error} />
        <h2>Events from the server</h2>
        <ol class="list sim-events" aria-label="Events the tracks caused" reversed>
          {sent.map((s) => (
            <li key={s.n}>
              <span class="meta">track {s.n}:</span>{' '}
              {s.events.length === 0 ? (
                <span class="meta">no events</span>
              ) : (
                s.events.map((e) => (
                  <span key={e._id} class="sim-event">
                    {e.type}
                    {e.geofence ? ` (${e.geofence.description})` : ''}{' '}
                  </span>
                ))
              )}
            </li>
          ))}
        </ol>
      </section>
      <MapView
        label="Simulator map: click to send tracks"
        data={{ geofences: collection(fences.map(geofenceFeature)), sim }}
        fit={['geofences']}
        onClick={onMapClick}
      />
    </div>
  );
}
