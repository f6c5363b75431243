import { invalid, invalidParam } from '../errors.js';

/**
 * Where a publishable key may be used from (`PATCH /v1/settings` `keyRestrictions`): web origins,
 * with `*` wildcards for host labels and optional ports (`https://*.example.com`,
 * `http://localhost:3000`), and mobile app ids (bundle or package ids). Empty lists restrict nothing;
 * once either is set a request must match one of them. Secret keys are never restricted.
 */
export interface KeyRestrictions {
  origins: string[];
  apps: string[];
}

const MAX_ENTRIES = 100;
const ORIGIN = /^(https?):\/\/((?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*|\*)(?::(\d{1,5}|\*))?$/;
const APP = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,255}$/;

export function parseKeyRestrictions(raw: unknown, name: string): KeyRestrictions {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidParam(name, 'must be an object.');
  const v = raw as Record<string, unknown>;
  const extra = Object.keys(v).find((k) => k !== 'origins' && k !== 'apps');
  if (extra !== undefined) throw invalid(name, `${name}.${extra} is not a key restriction (origins, apps).`);
  const list = (field: 'origins' | 'apps', pattern: RegExp, what: string): string[] => {
    const items = v[field] ?? [];
    if (!Array.isArray(items) || items.length > MAX_ENTRIES)
      throw invalid(name, `${name}.${field} must be an array of at most ${MAX_ENTRIES} ${what}.`);
    return items.map((item, i) => {
      const s =
        typeof item === 'string'
          ? field === 'origins'
            ? item.trim().toLowerCase().replace(/\/$/, '')
            : item.trim()
          : '';
      if (!pattern.test(s)) throw invalid(name, `${name}.${field}[${i}] must be ${what}.`);
      return s;
    });
  };
  return {
    origins: list('origins', ORIGIN, 'web origins such as "https://*.example.com" or "http://localhost:3000"'),
    apps: list('apps', APP, 'app ids such as "com.example.app"'),
  };
}

export function isRestricted(r: KeyRestrictions | undefined): r is KeyRestrictions {
  return !!r && (r.origins.length > 0 || r.apps.length > 0);
}

/** Whether a web origin (`scheme://host[:port]`, as browsers send it) matches one of the allowed patterns. */
export function originAllowed(r: KeyRestrictions, origin: string): boolean {
  const m = /^(https?):\/\/([^/:]+)(?::(\d+))?$/.exec(origin.trim().toLowerCase());
  if (!m) return false;
  const [, scheme, host, port] = m;
  return r.origins.some((pattern) => {
    const p = ORIGIN.exec(pattern);
    if (!p || p[1] !== scheme) return false;
    const [, , hostPattern, portPattern] = p;
    if (portPattern !== '*' && (portPattern ?? '') !== (port ?? '')) return false;
    if (hostPattern === '*') return true;
    if (hostPattern!.startsWith('*.')) return host!.endsWith(hostPattern!.slice(1));
    return host === hostPattern;
  });
}

export function appAllowed(r: KeyRestrictions, app: string): boolean {
  return r.apps.includes(app.trim());
}

/** The origin of a Referer URL (`https://shop.example.com/cart` → `https://shop.example.com`), or null. */
export function refererOrigin(referer: string): string | null {
  try {
    const u = new URL(referer);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** Whether a publishable-key request with these headers may proceed under `r`. */
export function requestAllowed(
  r: KeyRestrictions,
  h: { origin: string | undefined; referer: string | undefined; mobileOrigin: string | undefined },
): boolean {
  const web = h.origin ?? (h.referer ? refererOrigin(h.referer) : null);
  if (web && originAllowed(r, web)) return true;
  if (h.mobileOrigin && appAllowed(r, h.mobileOrigin)) return true;
  return false;
}
