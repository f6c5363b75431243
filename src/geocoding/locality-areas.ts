import { NameKind } from '../geodata/name-index.js';
import type { GeodataPack } from '../geodata/pack.js';

interface AreaSlots {
  /** Per place: 1 + index of its (area, admin-1 area) pair, 0 until first asked. */
  slot: Int32Array;
  byPair: Map<string, number>;
  /** Values cached per pair, by cache name. */
  values: Map<string, unknown[]>;
}

const slots = new WeakMap<GeodataPack, AreaSlots>();

/**
 * A value that depends only on a place's areas (GeoNames area and admin-1 area: state, county, country
 * names and codes), computed once per area pair and shared by its places: autocomplete builds such values
 * for thousands of candidates per query, from only a few thousand distinct pairs.
 * @param name which value (one cache per name)
 * @param id locality row
 * @param compute builds the value from any place of the pair (the first one asked)
 */
export function perLocalityArea<T>(pack: GeodataPack, name: string, id: number, compute: (id: number) => T): T {
  const s = areaSlots(pack);
  const slot = slotOf(pack, s, id);
  let values = s.values.get(name);
  if (!values) {
    values = [];
    s.values.set(name, values);
  }
  let value = values[slot] as T | undefined;
  if (value === undefined) {
    value = compute(id);
    values[slot] = value;
  }
  return value;
}

/** The area pair of a locality as a number (1 + index): see {@link entryAreaSlots}. */
export function localityAreaSlot(pack: GeodataPack, id: number): number {
  return slotOf(pack, areaSlots(pack), id);
}

const entrySlots = new WeakMap<GeodataPack, Int32Array>();

/**
 * Per name-index entry of a locality: its area pair as a number (1 + index; 0 for other entries). Places
 * with the same number share every value of {@link perLocalityArea}, so a filter over thousands of
 * candidates can be decided once per number. Built on first use (once per pack, see `prepareGeocoding`).
 */
export function entryAreaSlots(pack: GeodataPack): Int32Array {
  let out = entrySlots.get(pack);
  if (!out) {
    const { kinds, ids, size } = pack.names;
    const s = areaSlots(pack);
    out = new Int32Array(size);
    for (let e = 0; e < size; e++) if (kinds[e] === NameKind.locality) out[e] = slotOf(pack, s, ids[e]!);
    entrySlots.set(pack, out);
  }
  return out;
}

function areaSlots(pack: GeodataPack): AreaSlots {
  let s = slots.get(pack);
  if (!s) {
    s = { slot: new Int32Array(pack.localities.count), byPair: new Map(), values: new Map() };
    slots.set(pack, s);
  }
  return s;
}

function slotOf(pack: GeodataPack, s: AreaSlots, id: number): number {
  let slot = s.slot[id]!;
  if (slot === 0) {
    const c = pack.localities.columns;
    const pair = `${c.area[id]}:${c.admin1Area[id]}`;
    slot = s.byPair.get(pair) ?? s.byPair.size + 1;
    s.byPair.set(pair, slot);
    s.slot[id] = slot;
  }
  return slot;
}
