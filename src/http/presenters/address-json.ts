import type { GeocodeAddress } from '../../geocoding/address.js';
import { addressText } from '../../geocoding/address-text.js';
import { JsonText } from '../define-route.js';

// Autocomplete answers repeat and come back as the same address objects (see `recentCompletions`), which
// are never changed once made: the JSON of each is kept with it (`addressText`, or made with the address),
// so a repeated answer is not serialised again.

/**
 * The response `{"meta":{"code":200},"addresses":[…]}`, byte for byte what serialising it whole gives,
 * each address serialised once in its lifetime.
 */
export function addressesJson(addresses: readonly GeocodeAddress[], requestId?: string): JsonText {
  // radar-sdk-js reads meta.requestId of an autocomplete answer and reports it with the click.
  const meta = requestId === undefined ? '{"code":200}' : `{"code":200,"requestId":${JSON.stringify(requestId)}}`;
  let body = `{"meta":${meta},"addresses":[`;
  for (let i = 0; i < addresses.length; i++) {
    const address = addresses[i]!;
    body += (i === 0 ? '' : ',') + addressText(address);
  }
  return new JsonText(`${body}]}`);
}
