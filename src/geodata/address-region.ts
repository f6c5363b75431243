/**
 * The region part of the spec's Address (state down to postal code, and the country), which geocoding
 * results and IP lookups answer alike.
 */
export interface AddressRegion {
  state?: string;
  stateCode?: string;
  postalCode?: string;
  country?: string;
  countryCode?: string;
  countryFlag?: string;
}
