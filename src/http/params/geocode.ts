import { isIP } from 'node:net';
import { invalidParam } from '../../domain/errors.js';
import { GEOCODE_LAYERS, type LayerName } from '../../geocoding/layers.js';
import { param } from './param.js';
import { str } from './scalars.js';
import { commaList } from './structured.js';

/** `layers`: a comma list of the spec's layer names (`coarse` and `fine` included); absent means all. */
export const layers = () => commaList<LayerName>({ values: GEOCODE_LAYERS });

/**
 * `country=US,CA`: one or more 2-letter ISO 3166-1 codes, comma-separated (or an array), any case,
 * returned upper case; results in any of them. A single code reads as a list of one.
 */
export const countryCodes = () =>
  param({ type: 'string', pattern: '^[A-Za-z]{2}(,[A-Za-z]{2})*$', example: 'US,CA' }, (raw, name) => {
    const codes = commaList({ max: 50 }).parse(raw, name);
    const bad = codes.find((c) => !/^[A-Za-z]{2}$/.test(c));
    if (bad !== undefined || codes.length === 0)
      throw invalidParam(
        name,
        `must be 2-letter ISO 3166-1 country codes, comma-separated, such as US,CA${bad === undefined ? '' : ` ("${bad}" is not one)`}.`,
      );
    return [...new Set(codes.map((c) => c.toUpperCase()))];
  });

/** One 2-letter ISO 3166-1 code, any case, returned upper case (address validation names one country). */
export const countryCode = () =>
  param({ type: 'string', pattern: '^[A-Za-z]{2}$', example: 'US' }, (raw, name) =>
    str({ pattern: /^[A-Za-z]{2}$/, patternRule: 'must be a 2-letter ISO 3166-1 country code, such as US.' })
      .parse(raw, name)
      .toUpperCase(),
  );

/** An IPv4 or IPv6 address. */
export const ipAddress = () =>
  param({ type: 'string', example: '8.8.8.8' }, (raw, name) => {
    const s = typeof raw === 'string' ? raw.trim() : '';
    if (isIP(s) === 0) throw invalidParam(name, 'must be an IPv4 or IPv6 address, such as 8.8.8.8.');
    return s;
  });
