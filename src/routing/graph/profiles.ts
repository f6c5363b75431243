import type { TravelMode } from '../../domain/geofences/geofence.js';
import type { OsmTags } from '../../geodata/osm/osm-file.js';

/** How one mode may use a way: in which directions and how fast (km/h). */
export interface WayUse {
  forward: boolean;
  backward: boolean;
  speedKmh: number;
}

/** Modes with a road graph of their own in the pack. */
export type GraphMode = TravelMode | 'truck';
/** Every mode a route can be asked for: motorbikes drive the car graph, re-timed (`MOTORBIKE_FACTORS`). */
export type RouteMode = GraphMode | 'motorbike';

export const ROUTING_MODES: readonly GraphMode[] = ['car', 'bike', 'foot', 'truck'];

/**
 * The truck assumed where a way is limited by `maxheight` / `maxweight` (the spec and SDKs name no
 * vehicle parameters): a loaded two-axle rigid truck, the commonest delivery vehicle over 3.5 t.
 */
export const DEFAULT_TRUCK = { heightMeters: 4, weightTonnes: 18 } as const;

/**
 * Truck speeds: the car's (limit or class default) capped per class, lower on fast roads, where
 * trucks are governed or limited (80 km/h is a common motorway limit for trucks) and slow on grades.
 */
export const TRUCK_MAX_SPEEDS: Readonly<Record<string, number>> = {
  motorway: 80,
  motorway_link: 40,
  trunk: 65,
  trunk_link: 35,
  primary: 50,
  primary_link: 30,
  secondary: 40,
  secondary_link: 25,
  tertiary: 35,
  tertiary_link: 20,
  unclassified: 25,
  residential: 20,
  living_street: 10,
  service: 12,
  road: 20,
};

/**
 * Motorbike time per car time by class: on fast roads a motorbike keeps the same limits as a car; on
 * town roads it loses less to junctions and queues (quicker off the line, narrower). Applied to each
 * chain of the car route, so the route is the car's and only its duration differs.
 */
export const MOTORBIKE_FACTORS: Readonly<Record<string, number>> = {
  motorway: 1,
  motorway_link: 1,
  trunk: 1,
  trunk_link: 1,
  primary: 0.95,
  primary_link: 0.95,
  secondary: 0.93,
  secondary_link: 0.93,
  tertiary: 0.92,
  tertiary_link: 0.92,
  unclassified: 0.9,
  residential: 0.9,
  living_street: 0.9,
  service: 0.9,
  road: 0.9,
};

/**
 * Car speeds by highway class when a way has no usable `maxspeed`: rural-ish averages, already below
 * the legal limit because junctions and traffic eat into it.
 */
export const CAR_SPEEDS: Readonly<Record<string, number>> = {
  motorway: 90,
  motorway_link: 45,
  trunk: 70,
  trunk_link: 40,
  primary: 55,
  primary_link: 35,
  secondary: 45,
  secondary_link: 30,
  tertiary: 40,
  tertiary_link: 25,
  unclassified: 30,
  residential: 25,
  living_street: 10,
  service: 15,
  road: 25,
};

/** Bike speeds by class; paths and tracks are slower (surface), footways only where bikes are allowed. */
export const BIKE_SPEEDS: Readonly<Record<string, number>> = {
  cycleway: 18,
  primary: 18,
  primary_link: 18,
  secondary: 18,
  secondary_link: 18,
  tertiary: 18,
  tertiary_link: 18,
  unclassified: 16,
  residential: 16,
  living_street: 12,
  service: 14,
  road: 16,
  trunk: 18,
  trunk_link: 18,
  track: 12,
  path: 12,
  bridleway: 8,
  footway: 8,
  pedestrian: 8,
};

/** Walking speed on everything walkable; steps are slower. */
export const FOOT_SPEEDS: Readonly<Record<string, number>> = {
  footway: 5,
  pedestrian: 5,
  path: 5,
  steps: 3,
  track: 5,
  living_street: 5,
  residential: 5,
  service: 5,
  unclassified: 5,
  road: 5,
  tertiary: 5,
  tertiary_link: 5,
  secondary: 5,
  secondary_link: 5,
  primary: 5,
  primary_link: 5,
  trunk: 5,
  trunk_link: 5,
  cycleway: 5,
  bridleway: 5,
  corridor: 5,
};

/** Access tags from most to least specific, per mode (OSM access hierarchy). */
const ACCESS_KEYS: Readonly<Record<GraphMode, readonly string[]>> = {
  car: ['motorcar', 'motor_vehicle', 'vehicle', 'access'],
  truck: ['hgv', 'goods', 'motor_vehicle', 'vehicle', 'access'],
  bike: ['bicycle', 'vehicle', 'access'],
  foot: ['foot', 'access'],
};

const DENIED = new Set(['no', 'private', 'agricultural', 'forestry', 'use_sidepath', 'discouraged_no', 'military']);
const GRANTED = new Set(['yes', 'designated', 'permissive', 'destination', 'customers', 'delivery', 'official']);

/** Whether tags grant (true), deny (false) or say nothing (null) about the mode's access. */
function accessTag(tags: OsmTags, mode: GraphMode): boolean | null {
  for (const key of ACCESS_KEYS[mode]) {
    const v = tags[key];
    if (v === undefined) continue;
    if (DENIED.has(v)) return false;
    if (GRANTED.has(v)) return true;
  }
  return null;
}

/** `maxspeed` in km/h (`50`, `35 mph`, `50;60`), or null when absent or symbolic (`signals`, `none`). */
export function parseMaxspeed(value: string | undefined): number | null {
  if (!value) return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(mph|km\/h|kmh)?/i.exec(value);
  if (!m) return null;
  const n = Number(m[1]);
  if (!(n > 0)) return null;
  return m[2]?.toLowerCase() === 'mph' ? n * 1.609344 : n;
}

/**
 * `maxheight` in meters (`4.2`, `4.2 m`, `14'4"`, `14 ft`), or null when absent or symbolic
 * (`default`, `none`, `below_default`).
 */
export function parseMaxheight(value: string | undefined): number | null {
  if (!value) return null;
  const feet = /^\s*(\d+(?:\.\d+)?)\s*(?:'|ft)\s*(?:(\d+(?:\.\d+)?)\s*(?:"|in)?)?\s*$/i.exec(value);
  if (feet) return Number(feet[1]) * 0.3048 + Number(feet[2] ?? 0) * 0.0254;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(m)?\s*$/i.exec(value);
  return m && Number(m[1]) > 0 ? Number(m[1]) : null;
}

/** `maxweight` in tonnes (`7.5`, `7.5 t`, `10 st` short tons, `20000 lbs`, `3500 kg`), or null. */
export function parseMaxweight(value: string | undefined): number | null {
  if (!value) return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(t|st|lbs?|kg)?\s*$/i.exec(value);
  if (!m || !(Number(m[1]) > 0)) return null;
  const n = Number(m[1]);
  const unit = m[2]?.toLowerCase();
  if (unit === 'st') return n * 0.90718474;
  if (unit === 'lb' || unit === 'lbs') return n * 0.00045359237;
  if (unit === 'kg') return n / 1000;
  return n;
}

/** Whether the default truck fits under the way's height limit and within its weight limit. */
function truckFits(tags: OsmTags): boolean {
  const height = parseMaxheight(tags['maxheight:physical'] ?? tags.maxheight);
  if (height !== null && height < DEFAULT_TRUCK.heightMeters) return false;
  const weight = parseMaxweight(tags['maxweight:hgv'] ?? tags.maxweight);
  return weight === null || weight >= DEFAULT_TRUCK.weightTonnes;
}

/** Oneway direction from tags: 1 forward only, -1 backward only, 0 both. */
function onewayOf(tags: OsmTags, key: string, implied: boolean): number {
  const v = tags[key];
  if (v === 'yes' || v === 'true' || v === '1') return 1;
  if (v === '-1' || v === 'reverse') return -1;
  if (v === 'no' || v === 'false' || v === '0') return 0;
  return implied ? 1 : 0;
}

/** A way is routable only when it is not an area, not planned or closed, and not reversible. */
function unroutable(tags: OsmTags): boolean {
  return tags.area === 'yes' || tags.oneway === 'reversible' || tags.oneway === 'alternating';
}

/**
 * How a mode may use a way, or null when it may not. Car: the road classes of {@link CAR_SPEEDS},
 * speed from `maxspeed` (90% of the limit, capped by nothing else) or the class default, oneway from
 * `oneway`, roundabouts and motorways. Bike: roads except motorways plus cycleways, paths and tracks,
 * oneway where tagged unless `oneway:bicycle=no` or a contraflow cycleway. Foot: anything walkable,
 * both ways unless `oneway:foot`. Truck: the car's roads where `hgv` (then `goods`, `motor_vehicle` …)
 * allows and `maxheight` / `maxweight` admit {@link DEFAULT_TRUCK}, at {@link TRUCK_MAX_SPEEDS} or less.
 */
export function wayUse(tags: OsmTags, mode: GraphMode): WayUse | null {
  const highway = tags.highway;
  if (!highway || unroutable(tags)) return null;
  const roundabout = tags.junction === 'roundabout' || tags.junction === 'circular';
  if (mode === 'truck') {
    // The car's roads, less those closed to trucks (`hgv=no`; `destination` stays open, as for cars:
    // deliveries end there) and those the default truck is too tall or heavy for.
    const cap = TRUCK_MAX_SPEEDS[highway];
    if (cap === undefined || accessTag(tags, 'truck') === false || !truckFits(tags)) return null;
    const limit = parseMaxspeed(tags['maxspeed:hgv'] ?? tags.maxspeed);
    const speedKmh = Math.min(cap, limit ? Math.max(5, limit * 0.9) : cap);
    const dir = onewayOf(tags, 'oneway', roundabout || highway === 'motorway' || highway === 'motorway_link');
    return { forward: dir >= 0, backward: dir <= 0, speedKmh };
  }
  if (mode === 'car') {
    const base = CAR_SPEEDS[highway];
    if (base === undefined || accessTag(tags, 'car') === false) return null;
    const limit = parseMaxspeed(tags.maxspeed);
    const speedKmh = limit ? Math.max(5, limit * 0.9) : base;
    const dir = onewayOf(tags, 'oneway', roundabout || highway === 'motorway' || highway === 'motorway_link');
    return { forward: dir >= 0, backward: dir <= 0, speedKmh };
  }
  if (mode === 'bike') {
    const granted = accessTag(tags, 'bike');
    let speed = BIKE_SPEEDS[highway];
    // Footways and pedestrian streets carry bikes only where signed for them.
    if ((highway === 'footway' || highway === 'pedestrian') && granted !== true) return null;
    if (speed === undefined && granted === true && highway !== 'motorway' && highway !== 'motorway_link') speed = 12;
    if (speed === undefined || granted === false) return null;
    const contraflow = tags['oneway:bicycle'] === 'no' || /^opposite/.test(tags.cycleway ?? '');
    const dir = contraflow ? 0 : onewayOf(tags, tags['oneway:bicycle'] ? 'oneway:bicycle' : 'oneway', roundabout);
    return { forward: dir >= 0, backward: dir <= 0, speedKmh: speed };
  }
  const speed = FOOT_SPEEDS[highway];
  const granted = accessTag(tags, 'foot');
  if (granted === false || (speed === undefined && granted !== true)) return null;
  const dir = onewayOf(tags, 'oneway:foot', false);
  return { forward: dir >= 0, backward: dir <= 0, speedKmh: speed ?? 5 };
}
