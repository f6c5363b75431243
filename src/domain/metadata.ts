/** Custom metadata: up to 16 keys, values string, boolean or number (spec, Limits). */
export type Metadata = Record<string, string | number | boolean>;

export const MAX_METADATA_KEYS = 16;

/**
 * Longest metadata value (a string) and key, in characters. The spec names no length; without one,
 * 40 fences of 4 MB of metadata each made one search answer 168 MB. 16 values of 1,000 characters
 * keep a document under 20 KB, with room for any id or label a client keeps there.
 */
export const MAX_METADATA_VALUE_LENGTH = 1000;
export const MAX_METADATA_KEY_LENGTH = 256;
