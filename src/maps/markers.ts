/** Marker pins by name (`/maps/markers/<name>`), each a fill colour; `default` is Radar's blue. */
const MARKERS: Record<string, string> = {
  default: '#007aff',
  'default-blue': '#007aff',
  'default-red': '#ff3b30',
  'default-green': '#34c759',
  'default-gray': '#8e8e93',
};

/** The SVG of a pin (30 × 40 px, the point at the bottom middle), or null for an unknown name. */
export function markerSvg(name: string): string | null {
  const fill = MARKERS[name];
  if (!fill) return null;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="30" height="40" viewBox="0 0 30 40"><path d="M15 39C15 39 2 23.5 2 14.5a13 13 0 0 1 26 0C28 23.5 15 39 15 39z" fill="${fill}" stroke="#ffffff" stroke-width="2"/><circle cx="15" cy="14.5" r="5" fill="#ffffff"/></svg>`;
}
