import type { GeocodeAddress } from './address.js';

// Addresses are never changed once made (autocomplete keeps and shares them, see `recentCompletions`):
// the JSON of each is kept with it, made once, or given by the code that built it. It is kept on the
// address under a symbol, not enumerable: JSON, spreads, `Object.keys` and deep equality never see it (a
// spread copy, e.g. with `confidence` added, gets its own text). A WeakMap from address to text cost
// more: every address of every answer went through the map's table, and the scavenges that must
// consult it kept three times more young objects alive (--trace-gc-nvp over the bench's queries).
const TEXT = Symbol('addressText');

type WithText = GeocodeAddress & { [TEXT]?: string };

/** `JSON.stringify(address)`, computed once per address object. */
export function addressText(address: GeocodeAddress): string {
  let text = (address as WithText)[TEXT];
  if (text === undefined) {
    text = JSON.stringify(address);
    keepAddressText(address, text);
  }
  return text;
}

/**
 * Records the JSON of an address built along with it (it must be exactly `JSON.stringify(address)`, and
 * the address must not change after), so that answering with it costs no serialisation.
 */
export function keepAddressText(address: GeocodeAddress, text: string): void {
  Object.defineProperty(address, TEXT, { value: text, enumerable: false, writable: false, configurable: false });
}
