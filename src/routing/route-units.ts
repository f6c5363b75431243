/** Route units of the spec: metric (meters, "1.2 km", "350 m") or imperial (feet, "0.8 mi", "500 ft"). */
export type Units = 'metric' | 'imperial';

export interface ValueText {
  value: number;
  text: string;
}

const FEET_PER_METER = 3.28084;
const FEET_PER_MILE = 5280;

/**
 * A distance in the chosen units: value in meters or feet, text in km/m or mi/ft. Short distances are
 * given in whole meters or feet (below 1 km, or a tenth of a mile), longer ones in tenths of km or mi.
 */
export function formatDistance(meters: number, units: Units): ValueText {
  if (units === 'imperial') {
    const feet = meters * FEET_PER_METER;
    const text = feet < FEET_PER_MILE / 10 ? `${Math.round(feet)} ft` : `${trimmed(feet / FEET_PER_MILE)} mi`;
    return { value: round1(feet), text };
  }
  const text = meters < 1000 ? `${Math.round(meters)} m` : `${trimmed(meters / 1000)} km`;
  return { value: round1(meters), text };
}

/** A duration: value in minutes (one decimal), text like "1 min", "12 mins", "1 hr 5 mins", "2 hrs". */
export function formatDuration(seconds: number): ValueText {
  const minutes = seconds / 60;
  const whole = Math.round(minutes);
  const h = Math.floor(whole / 60);
  const m = whole % 60;
  const text = h === 0 ? plural(m, 'min') : m === 0 ? plural(h, 'hr') : `${plural(h, 'hr')} ${plural(m, 'min')}`;
  return { value: round1(minutes), text };
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** One decimal, trailing ".0" dropped: 1.2, 12, 0.8. */
function trimmed(x: number): string {
  return String(round1(x));
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
