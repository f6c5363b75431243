import maplibregl, {
  type ExpressionSpecification,
  type FilterSpecification,
  type GeoJSONSource,
  type LayerSpecification,
  type Map as MapLibreMap,
  type StyleSpecification,
} from 'maplibre-gl';
import { useEffect, useRef } from 'preact/hooks';
import { session } from './api.js';
import { boundsOf, collection, type FeatureCollection, type LonLat } from './geo.js';

/** The sources every map has; a page fills those it shows. */
export type LayerName = 'geofences' | 'trips' | 'users' | 'places' | 'history' | 'draft' | 'sim';
export type MapData = Partial<Record<LayerName, FeatureCollection>>;

/** What a click on a drawn thing gives: the layer and the feature's properties. */
export interface Picked {
  layer: LayerName;
  properties: Record<string, unknown>;
}

interface Props {
  data: MapData;
  /** A click on the map where nothing clickable is drawn. */
  onClick?: (at: LonLat) => void;
  /** A click on a geofence, user, trip or place. */
  onPick?: (picked: Picked) => void;
  /** Fit the view to these layers when their data first arrives (or when `fitKey` changes). */
  fit?: LayerName[];
  fitKey?: string;
  label: string;
  center?: LonLat;
  zoom?: number;
}

/** The server's base map when the maps are served (`/maps/styles/...`), else a plain background. */
let styleChoice: Promise<string | StyleSpecification> | null = null;
function chooseStyle(): Promise<string | StyleSpecification> {
  styleChoice ??= (async () => {
    const key = session.publishable();
    const q = key ? `?key=${encodeURIComponent(key)}` : '';
    const url = `/maps/styles/radar-default-v1${q}`;
    try {
      // The style is served even before a geodata pack is imported, but its tiles are not (503): then
      // the plain style, rather than a map of failing tiles.
      const [style, tile] = await Promise.all([fetch(url), fetch(`/maps/tiles/0/0/0.pbf${q}`)]);
      if (style.ok && tile.ok) return url;
    } catch {
      // No base map: the plain style below still draws every layer.
    }
    return {
      version: 8,
      sources: {},
      layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#eef1f4' } }],
    } satisfies StyleSpecification;
  })();
  return styleChoice;
}

const CLICKABLE = ['geofences-fill', 'trips-line', 'users-circle', 'places-circle'];

/** Where a source holds a path and its points (trips, history, the draft, the simulator), what a layer draws. */
const PATHS: FilterSpecification = ['==', ['geometry-type'], 'LineString'];
const POINTS: FilterSpecification = ['==', ['geometry-type'], 'Point'];
/** A disabled geofence is drawn grey. */
const ENABLED_COLOR: ExpressionSpecification = ['case', ['==', ['get', 'enabled'], false], '#9aa0a6', '#1a73e8'];
/** The current position in a user's history is the larger red dot. */
const isCurrent: ExpressionSpecification = ['==', ['get', 'current'], true];

/** A dot ringed in white, which stands out on the base map and on a geofence's fill. */
function ringedDot(color: string | ExpressionSpecification, radius: number | ExpressionSpecification, ring = 2) {
  return { 'circle-color': color, 'circle-radius': radius, 'circle-stroke-color': '#fff', 'circle-stroke-width': ring };
}

/** A layer named `<source>-<what>` drawing that source, or only what `filter` keeps of it. */
function layer(
  id: `${LayerName}-${string}`,
  type: 'fill' | 'line' | 'circle',
  paint: Record<string, unknown>,
  filter?: FilterSpecification,
): LayerSpecification {
  const source = id.slice(0, id.indexOf('-'));
  return { id, type, source, paint, ...(filter && { filter }) } as LayerSpecification;
}

/** Bottom to top; each page fills the sources it shows and leaves the others empty. */
const LAYERS: LayerSpecification[] = [
  layer('geofences-fill', 'fill', { 'fill-color': ENABLED_COLOR, 'fill-opacity': 0.18 }),
  layer('geofences-line', 'line', { 'line-color': ENABLED_COLOR, 'line-width': 2 }),
  layer('trips-line', 'line', { 'line-color': '#e8710a', 'line-width': 4 }, PATHS),
  layer('trips-dest', 'circle', ringedDot('#e8710a', 7), POINTS),
  layer('history-line', 'line', { 'line-color': '#8e24aa', 'line-width': 3 }, PATHS),
  layer(
    'history-points',
    'circle',
    ringedDot(['case', isCurrent, '#d93025', '#8e24aa'], ['case', isCurrent, 9, 4], 1),
    POINTS,
  ),
  layer('places-circle', 'circle', ringedDot('#188038', 6)),
  layer('users-circle', 'circle', ringedDot('#d93025', 8)),
  layer('draft-fill', 'fill', { 'fill-color': '#f9ab00', 'fill-opacity': 0.25 }, ['==', ['geometry-type'], 'Polygon']),
  layer('draft-line', 'line', { 'line-color': '#f9ab00', 'line-width': 2, 'line-dasharray': [2, 1] }),
  layer('draft-points', 'circle', { 'circle-color': '#f9ab00', 'circle-radius': 5 }, POINTS),
  layer('sim-line', 'line', { 'line-color': '#5f6368', 'line-width': 3, 'line-dasharray': [1, 1] }, PATHS),
  layer('sim-points', 'circle', ringedDot('#202124', 6), POINTS),
];

function addLayers(map: MapLibreMap): void {
  for (const name of ['geofences', 'trips', 'users', 'places', 'history', 'draft', 'sim'])
    map.addSource(name, { type: 'geojson', data: collection([]) });
  for (const spec of LAYERS) map.addLayer(spec);
}

/**
 * A MapLibre GL map drawing the page's GeoJSON. It can be panned and zoomed by keyboard (arrow keys,
 * + and -) once focused; what a click does on it can also be done with the page's form fields.
 */
export function MapView({ data, onClick, onPick, fit, fitKey, label, center, zoom }: Props) {
  const container = useRef<HTMLElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const ready = useRef(false);
  const latest = useRef({ data, onClick, onPick });
  latest.current = { data, onClick, onPick };
  const fitted = useRef<string | null>(null);

  const apply = () => {
    const m = map.current;
    if (!m || !ready.current) return;
    for (const [name, fc] of Object.entries(latest.current.data))
      (m.getSource(name) as GeoJSONSource | undefined)?.setData(fc as never);
    const key = fitKey ?? 'once';
    if (fit && fitted.current !== key) {
      const b = boundsOf(...fit.map((n) => latest.current.data[n] ?? collection([])));
      if (b) {
        fitted.current = key;
        const point = b[0][0] === b[1][0] && b[0][1] === b[1][1];
        if (point) m.jumpTo({ center: b[0], zoom: 15 });
        else m.fitBounds(b, { padding: 40, maxZoom: 16, duration: 0 });
        container.current?.setAttribute('data-fitted', key);
      }
    }
  };

  useEffect(() => {
    let disposed = false;
    void chooseStyle().then((style) => {
      if (disposed || !container.current) return;
      const m = new maplibregl.Map({
        container: container.current,
        style,
        center: center ?? [-73.9867, 40.7039],
        zoom: zoom ?? 13,
        attributionControl: false,
      });
      map.current = m;
      // For the browser tests and for people scripting the page from the console.
      (window as unknown as { whereaboutsMap: MapLibreMap }).whereaboutsMap = m;
      m.addControl(new maplibregl.NavigationControl({ showCompass: false }));
      m.getCanvas().setAttribute('aria-label', `${label} (arrow keys pan, + and - zoom)`);
      // The style, not every tile, is what the layers need: a tile the server fails must not keep the page's
      // layers away.
      m.once('style.load', () => {
        addLayers(m);
        ready.current = true;
        container.current?.setAttribute('data-ready', 'true');
        apply();
      });
      m.on('click', (e) => {
        const hits = ready.current ? m.queryRenderedFeatures(e.point, { layers: CLICKABLE }) : [];
        const hit = hits[0];
        if (hit && latest.current.onPick) {
          latest.current.onPick({ layer: hit.source as LayerName, properties: hit.properties ?? {} });
        } else latest.current.onClick?.([e.lngLat.lng, e.lngLat.lat]);
      });
    });
    return () => {
      disposed = true;
      map.current?.remove();
      map.current = null;
      ready.current = false;
    };
  }, []);

  useEffect(apply, [data, fitKey]);

  return <section class="map" ref={container} aria-label={label} />;
}
