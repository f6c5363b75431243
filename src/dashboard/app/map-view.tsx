import maplibregl, { type GeoJSONSource, type Map as MapLibreMap, type StyleSpecification } from 'maplibre-gl';
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

function addLayers(map: MapLibreMap): void {
  for (const name of ['geofences', 'trips', 'users', 'places', 'history', 'draft', 'sim'])
    map.addSource(name, { type: 'geojson', data: collection([]) });
  const enabled = ['case', ['==', ['get', 'enabled'], false], '#9aa0a6', '#1a73e8'];
  map.addLayer({
    id: 'geofences-fill',
    type: 'fill',
    source: 'geofences',
    paint: { 'fill-color': enabled as never, 'fill-opacity': 0.18 },
  });
  map.addLayer({
    id: 'geofences-line',
    type: 'line',
    source: 'geofences',
    paint: { 'line-color': enabled as never, 'line-width': 2 },
  });
  map.addLayer({
    id: 'trips-line',
    type: 'line',
    source: 'trips',
    filter: ['==', ['geometry-type'], 'LineString'],
    paint: { 'line-color': '#e8710a', 'line-width': 4 },
  });
  map.addLayer({
    id: 'trips-dest',
    type: 'circle',
    source: 'trips',
    filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-color': '#e8710a', 'circle-radius': 7, 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 },
  });
  map.addLayer({
    id: 'history-line',
    type: 'line',
    source: 'history',
    filter: ['==', ['geometry-type'], 'LineString'],
    paint: { 'line-color': '#8e24aa', 'line-width': 3 },
  });
  map.addLayer({
    id: 'history-points',
    type: 'circle',
    source: 'history',
    filter: ['==', ['geometry-type'], 'Point'],
    paint: {
      'circle-color': ['case', ['==', ['get', 'current'], true], '#d93025', '#8e24aa'],
      'circle-radius': ['case', ['==', ['get', 'current'], true], 9, 4],
      'circle-stroke-color': '#fff',
      'circle-stroke-width': 1,
    },
  });
  map.addLayer({
    id: 'places-circle',
    type: 'circle',
    source: 'places',
    paint: { 'circle-color': '#188038', 'circle-radius': 6, 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 },
  });
  map.addLayer({
    id: 'users-circle',
    type: 'circle',
    source: 'users',
    paint: { 'circle-color': '#d93025', 'circle-radius': 8, 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 },
  });
  map.addLayer({
    id: 'draft-fill',
    type: 'fill',
    source: 'draft',
    filter: ['==', ['geometry-type'], 'Polygon'],
    paint: { 'fill-color': '#f9ab00', 'fill-opacity': 0.25 },
  });
  map.addLayer({
    id: 'draft-line',
    type: 'line',
    source: 'draft',
    paint: { 'line-color': '#f9ab00', 'line-width': 2, 'line-dasharray': [2, 1] },
  });
  map.addLayer({
    id: 'draft-points',
    type: 'circle',
    source: 'draft',
    filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-color': '#f9ab00', 'circle-radius': 5 },
  });
  map.addLayer({
    id: 'sim-line',
    type: 'line',
    source: 'sim',
    filter: ['==', ['geometry-type'], 'LineString'],
    paint: { 'line-color': '#5f6368', 'line-width': 3, 'line-dasharray': [1, 1] },
  });
  map.addLayer({
    id: 'sim-points',
    type: 'circle',
    source: 'sim',
    filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-color': '#202124', 'circle-radius': 6, 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 },
  });
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
