import type { GeocodeAddress } from './address.js';

// Addresses are never changed once made (autocomplete keeps and shares them, see `recentCompletions`):
// the JSON of each is kept with it, made once, or given by the code that built it.
const texts = new WeakMap<GeocodeAddress, string>();

/** `JSON.stringify(address)`, computed once per address object. */
export function addressText(address: GeocodeAddress): string {
  let text = texts.get(address);
  if (text === undefined) {
    text = JSON.stringify(address);
    texts.set(address, text);
  }
  return text;
}

/**
 * Records the JSON of an address built along with it (it must be exactly `JSON.stringify(address)`, and
 * the address must not change after), so that answering with it costs no serialisation.
 */
export function keepAddressText(address: GeocodeAddress, text: string): void {
  texts.set(address, text);
}
