import { isIP } from 'node:net';
import type { GeodataPack, IpLocation } from '../../geodata/pack.js';
import { isPublicIp } from '../../geodata/public-ip.js';
import { DomainError } from '../errors.js';
import { geodataUnavailable } from './geodata-unavailable.js';

/** The spec's IP geocode address: a point plus city, state, postal code and country where known. */
export interface IpAddress extends IpLocation {
  geometry: { type: 'Point'; coordinates: [number, number] };
}

export interface IpGeocode {
  /** The address looked up (an IPv4-mapped IPv6 address as plain IPv4). */
  ip: string;
  address: IpAddress;
  /** Whether the address is a known proxy or VPN exit. No open data says so: always false. */
  proxy: boolean;
}

/**
 * Locates an IP address with the pack's IP database. `ip` is what the caller sent, or the request's
 * address (`fromRequest`), which the error message then says. Not found (`param: "ip"`) for private,
 * reserved and unknown addresses; unavailable when the server has no IP database.
 */
export function ipGeocode(pack: GeodataPack, rawIp: string, fromRequest: boolean): IpGeocode {
  const ip = unmapIpv4(rawIp.trim());
  const who = fromRequest ? `ip ${ip} (the address this request came from)` : `ip ${ip}`;
  if (!pack.ipDatabase.available) throw geodataUnavailable(pack.ipDatabase.description);
  if (isIP(ip) !== 0 && !isPublicIp(ip)) {
    throw new DomainError('not-found', 'ip', `${who} is a private or reserved address: it has no location.`);
  }
  const found = pack.ipLookup(ip);
  if (!found) throw new DomainError('not-found', 'ip', `${who} is not in the IP database.`);
  const { latitude, longitude, ...names } = found;
  return {
    ip,
    address: { latitude, longitude, geometry: { type: 'Point', coordinates: [longitude, latitude] }, ...names },
    proxy: false,
  };
}

function unmapIpv4(ip: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip;
}
