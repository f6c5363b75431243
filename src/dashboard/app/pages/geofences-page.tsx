import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, call, download, type Json } from '../api.js';
import { CoordinateInputs } from '../coordinate-inputs.js';
import { geofenceFeature } from '../features.js';
import { circleRing, collection, distanceMeters, type LonLat, pointFeature, polygonFeature } from '../geo.js';
import { MapView } from '../map-view.js';
import { ErrorLine } from '../record.js';
import { ImportPanel } from './geofence-import.js';

interface Draft {
  tag: string;
  externalId: string;
  description: string;
  type: 'circle' | 'polygon';
  center: LonLat | null;
  radius: number;
  ring: LonLat[];
  enabled: boolean;
}

const EMPTY: Draft = {
  tag: '',
  externalId: '',
  description: '',
  type: 'circle',
  center: null,
  radius: 100,
  ring: [],
  enabled: true,
};

/** The body of `PUT /v1/geofences/:tag/:externalId` for a fence as it stands, with `change` applied. */
export function upsertBody(g: Json, change: Record<string, unknown> = {}): Record<string, unknown> {
  const polygon = g.type === 'polygon';
  return {
    description: g.description,
    type: g.type,
    coordinates: polygon ? g.geometry.coordinates[0] : g.geometryCenter.coordinates,
    ...(polygon ? {} : { radius: g.geometryRadius }),
    ...(g.mode ? { mode: g.mode } : {}),
    ...(g.metadata ? { metadata: g.metadata } : {}),
    enabled: g.enabled,
    ...change,
  };
}

export function GeofencesPage() {
  const [fences, setFences] = useState<Json[]>([]);
  const [tags, setTags] = useState<string[]>([]);
  const [tag, setTag] = useState('');
  const [search, setSearch] = useState('');
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    api('GET', `/v1/geofences?limit=1000${tag ? `&tag=${encodeURIComponent(tag)}` : ''}`).then(
      (r) => {
        setFences(r.geofences);
        if (!tag) setTags([...new Set<string>(r.geofences.map((g: Json) => g.tag).filter(Boolean))].sort());
      },
      (e) => setError(e.message),
    );
  }, [tag, version]);

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    if (!q) return fences;
    return fences.filter((g) =>
      [g.description, g.tag, g.externalId, g._id].some((v) => typeof v === 'string' && v.toLowerCase().includes(q)),
    );
  }, [fences, search]);

  const drawClick = (at: LonLat) => {
    if (draft.type === 'polygon') return setDraft({ ...draft, ring: [...draft.ring, at] });
    if (!draft.center) return setDraft({ ...draft, center: at });
    // A second click sets the radius: the distance from the centre, within what the API takes.
    const radius = Math.round(Math.min(10_000, Math.max(10, distanceMeters(draft.center, at))));
    setDraft({ ...draft, radius });
  };

  const draftShape = () => {
    if (draft.type === 'circle' && draft.center)
      return [polygonFeature(circleRing(draft.center, draft.radius)), pointFeature(draft.center)];
    if (draft.type === 'polygon' && draft.ring.length > 0) {
      const points = draft.ring.map((p) => pointFeature(p));
      return draft.ring.length >= 3 ? [polygonFeature([...draft.ring, draft.ring[0]!]), ...points] : points;
    }
    return [];
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setMessage(null);
    const coordinates =
      draft.type === 'circle' ? draft.center : draft.ring.length >= 3 ? [...draft.ring, draft.ring[0]] : null;
    if (!coordinates)
      return setError(
        draft.type === 'circle'
          ? 'Click on the map for the centre of the circle (or type its latitude and longitude).'
          : 'Click at least three corners of the polygon on the map.',
      );
    try {
      const r = await api(
        'PUT',
        `/v1/geofences/${encodeURIComponent(draft.tag)}/${encodeURIComponent(draft.externalId)}`,
        {
          json: {
            description: draft.description,
            type: draft.type,
            coordinates,
            ...(draft.type === 'circle' ? { radius: draft.radius } : {}),
            enabled: draft.enabled,
          },
        },
      );
      setMessage(`Saved geofence "${r.geofence.description}" (${r.geofence.tag}/${r.geofence.externalId}).`);
      setDraft(EMPTY);
      reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const edit = (g: Json) => {
    const polygon = g.type === 'polygon';
    const ring = polygon ? (g.geometry.coordinates[0] as LonLat[]).slice(0, -1) : [];
    setDraft({
      tag: g.tag ?? '',
      externalId: g.externalId ?? '',
      description: g.description,
      type: polygon ? 'polygon' : 'circle',
      center: polygon ? null : g.geometryCenter.coordinates,
      radius: g.geometryRadius ?? 100,
      ring,
      enabled: g.enabled !== false,
    });
    document.getElementById('fence-description')?.focus();
  };

  const toggle = async (g: Json) => {
    setError(null);
    try {
      await api('PUT', `/v1/geofences/${encodeURIComponent(g.tag)}/${encodeURIComponent(g.externalId)}`, {
        json: upsertBody(g, { enabled: !g.enabled }),
      });
      reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const remove = async (g: Json) => {
    setConfirming(null);
    try {
      await api('DELETE', `/v1/geofences/${encodeURIComponent(g._id)}`);
      setMessage(`Deleted geofence "${g.description}".`);
      reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const exportAs = async (format: 'csv' | 'geojson') => {
    const res = await call('GET', `/v1/geofences/export?format=${format}`);
    if (!res.ok) return setError(`Export answered ${res.status}: this server may not offer it yet.`);
    download(`geofences.${format}`, await res.text(), format === 'csv' ? 'text/csv' : 'application/geo+json');
  };

  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const drawing =
    draft.type === 'circle'
      ? draft.center
        ? 'Click again on the map to set the radius by its edge, or type it.'
        : 'Click on the map for the centre.'
      : `Click the corners on the map (${draft.ring.length} so far, at least 3).`;

  return (
    <div class="with-map">
      <section class="side">
        <h1>Geofences</h1>
        <ErrorLine error={error} />
        {message && (
          <p role="status" class="ok">
            {message}
          </p>
        )}
        <form class="editor" onSubmit={save} aria-label="Geofence editor">
          <h2>
            {fences.some((g) => g.tag === draft.tag && g.externalId === draft.externalId) ? 'Edit' : 'New'} geofence
          </h2>
          <fieldset>
            <legend>Shape</legend>
            <label>
              <input
                type="radio"
                name="shape"
                checked={draft.type === 'circle'}
                onChange={() => set({ type: 'circle' })}
              />
              Circle
            </label>
            <label>
              <input
                type="radio"
                name="shape"
                checked={draft.type === 'polygon'}
                onChange={() => set({ type: 'polygon' })}
              />
              Polygon
            </label>
          </fieldset>
          <p class="hint" aria-live="polite">
            {drawing}
          </p>
          <label for="fence-description">Description</label>
          <input
            id="fence-description"
            required
            value={draft.description}
            onInput={(e) => set({ description: e.currentTarget.value })}
          />
          <div class="row">
            <span>
              <label for="fence-tag">Tag</label>
              <input id="fence-tag" required value={draft.tag} onInput={(e) => set({ tag: e.currentTarget.value })} />
            </span>
            <span>
              <label for="fence-external-id">External id</label>
              <input
                id="fence-external-id"
                required
                value={draft.externalId}
                onInput={(e) => set({ externalId: e.currentTarget.value })}
              />
            </span>
          </div>
          {draft.type === 'circle' && (
            <div class="row">
              <CoordinateInputs
                idPrefix="fence"
                value={draft.center}
                editOn="change"
                onEdit={(i, text) => {
                  const center: LonLat = [draft.center?.[0] ?? 0, draft.center?.[1] ?? 0];
                  center[i] = Number(text);
                  set({ center });
                }}
              />
              <span>
                <label for="fence-radius">Radius (m)</label>
                <input
                  id="fence-radius"
                  type="number"
                  min={10}
                  max={10000}
                  value={draft.radius}
                  onInput={(e) => set({ radius: Number(e.currentTarget.value) })}
                />
              </span>
            </div>
          )}
          <label>
            <input
              type="checkbox"
              checked={draft.enabled}
              onChange={(e) => set({ enabled: e.currentTarget.checked })}
            />
            Enabled
          </label>
          <div class="row">
            <button type="submit">Save geofence</button>
            <button type="button" onClick={() => setDraft({ ...draft, center: null, ring: [] })}>
              Clear drawing
            </button>
          </div>
        </form>

        <h2>List</h2>
        <div class="row">
          <span>
            <label for="fence-search">Search</label>
            <input id="fence-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
          </span>
          <span>
            <label for="fence-tag-filter">Filter by tag</label>
            <select id="fence-tag-filter" value={tag} onChange={(e) => setTag(e.currentTarget.value)}>
              <option value="">all tags</option>
              {tags.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </span>
        </div>
        <p aria-live="polite">
          {shown.length} of {fences.length} geofences shown{fences.length === 1000 ? ' (the newest 1,000)' : ''}.
        </p>
        <ul class="list" aria-label="Geofences">
          {shown.slice(0, 200).map((g) => (
            <li key={g._id}>
              <span class="name">{g.description}</span>
              <span class="meta">
                {g.tag}/{g.externalId} · {g.type}
                {g.geometryRadius && g.type !== 'polygon' ? ` ${g.geometryRadius} m` : ''} ·{' '}
                {g.enabled ? 'enabled' : 'disabled'}
              </span>
              <span class="actions">
                <button type="button" onClick={() => edit(g)} aria-label={`Edit ${g.description}`}>
                  Edit
                </button>
                <button
                  type="button"
                  onClick={() => toggle(g)}
                  aria-label={`${g.enabled ? 'Disable' : 'Enable'} ${g.description}`}
                >
                  {g.enabled ? 'Disable' : 'Enable'}
                </button>
                {confirming === g._id ? (
                  <button
                    type="button"
                    class="danger"
                    onClick={() => remove(g)}
                    aria-label={`Confirm deleting ${g.description}`}
                  >
                    Confirm delete
                  </button>
                ) : (
                  <button type="button" onClick={() => setConfirming(g._id)} aria-label={`Delete ${g.description}`}>
                    Delete
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>

        <ImportPanel onImported={reload} />
        <h2>Export</h2>
        <div class="row">
          <button type="button" onClick={() => exportAs('csv')}>
            Export CSV
          </button>
          <button type="button" onClick={() => exportAs('geojson')}>
            Export GeoJSON
          </button>
        </div>
      </section>
      <MapView
        label="Geofence map: click to draw"
        data={{ geofences: collection(shown.map(geofenceFeature)), draft: collection(draftShape()) }}
        fit={['geofences']}
        fitKey={`${tag}-${fences.length > 0}`}
        onClick={drawClick}
      />
    </div>
  );
}
