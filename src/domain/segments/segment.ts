import { invalid, invalidParam } from '../errors.js';
import type { Metadata } from '../metadata.js';

export const INSIGHT_STATES = ['home', 'office', 'traveling', 'commuting'] as const;
export type InsightState = (typeof INSIGHT_STATES)[number];

/**
 * When a user is in a segment. Every part given must hold (and); within a list, any item (or):
 * - `metadata`: each key equals the user's metadata value (type included);
 * - `insights`: the user is in one of these Insights states (Insights on);
 * - `topChains`: one of these chain slugs is among the user's top chains (Places on).
 */
export interface SegmentCondition {
  metadata?: Metadata;
  insights?: InsightState[];
  topChains?: string[];
}

/** An operator's rule, kept on the project (`PATCH /v1/settings` `segments`, `projects segments`). */
export interface Segment {
  description: string;
  externalId: string;
  condition: SegmentCondition;
}

export const MAX_SEGMENTS = 100;
const CONDITION_KEYS = ['metadata', 'insights', 'topChains'];

/**
 * Reads a list of segments (or its JSON text), throwing an invalid-parameter error naming `name` with the item and field in
 * the message (`segments[1].externalId must ...`). Used by the settings route and the CLI.
 */
export function parseSegments(raw: unknown, name = 'segments'): Segment[] {
  let list = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw);
    } catch {
      throw invalidParam(name, 'must be an array of {description, externalId, condition} (or that array as JSON).');
    }
  }
  if (!Array.isArray(list))
    throw invalidParam(name, 'must be an array of {description, externalId, condition} (or that array as JSON).');
  if (list.length > MAX_SEGMENTS) throw invalidParam(name, `must have at most ${MAX_SEGMENTS} items.`);
  const seen = new Set<string>();
  return list.map((item, i) => {
    const fail = (rule: string) => invalid(name, `${name}[${i}]${rule}`);
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw fail(' must be an object.');
    const s = item as Record<string, unknown>;
    if (typeof s.description !== 'string' || !s.description.trim() || s.description.length > 1000)
      throw fail('.description must be a non-empty string of at most 1000 characters.');
    if (typeof s.externalId !== 'string' || !s.externalId.trim() || s.externalId.length > 256)
      throw fail('.externalId must be a non-empty string of at most 256 characters.');
    if (seen.has(s.externalId)) throw fail(`.externalId "${s.externalId}" is used by an earlier segment.`);
    seen.add(s.externalId);
    return { description: s.description.trim(), externalId: s.externalId, condition: condition(s.condition, fail) };
  });
}

function condition(raw: unknown, fail: (rule: string) => Error): SegmentCondition {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw fail(`.condition must be an object with one or more of ${CONDITION_KEYS.join(', ')}.`);
  const c = raw as Record<string, unknown>;
  const keys = Object.keys(c);
  const unknown = keys.find((k) => !CONDITION_KEYS.includes(k));
  if (unknown) throw fail(`.condition may only have the keys ${CONDITION_KEYS.join(', ')} ("${unknown}" is not one).`);
  if (keys.length === 0) throw fail(`.condition must have one or more of ${CONDITION_KEYS.join(', ')}.`);
  const out: SegmentCondition = {};
  if (c.metadata !== undefined) {
    const m = c.metadata;
    if (!m || typeof m !== 'object' || Array.isArray(m) || Object.keys(m).length === 0 || Object.keys(m).length > 16)
      throw fail('.condition.metadata must be a dictionary of 1 to 16 keys.');
    for (const [k, v] of Object.entries(m))
      if (!['string', 'number', 'boolean'].includes(typeof v))
        throw fail(`.condition.metadata.${k} must be a string, number or boolean.`);
    out.metadata = m as Metadata;
  }
  if (c.insights !== undefined) {
    const list = c.insights;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      list.some((v) => !(INSIGHT_STATES as readonly unknown[]).includes(v))
    )
      throw fail(`.condition.insights must be a non-empty array of ${INSIGHT_STATES.join(', ')}.`);
    out.insights = list as InsightState[];
  }
  if (c.topChains !== undefined) {
    const list = c.topChains;
    if (!Array.isArray(list) || list.length === 0 || list.some((v) => typeof v !== 'string' || !v))
      throw fail('.condition.topChains must be a non-empty array of chain slugs.');
    out.topChains = list as string[];
  }
  return out;
}
