/** Custom metadata: up to 16 keys, values string, boolean or number (spec, Limits). */
export type Metadata = Record<string, string | number | boolean>;

export const MAX_METADATA_KEYS = 16;
