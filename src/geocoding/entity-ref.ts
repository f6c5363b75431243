import type { NameKind } from '../geodata/name-index.js';

/**
 * Something the coarse geocoder can answer: row `id` of the pack table that `kind` names. Its own file
 * because entity.ts (what an entity is called, where it lies) and entity-context.ts (the areas around
 * it) both read it, and the first uses the second.
 */
export interface Entity {
  kind: NameKind;
  id: number;
}
