/**
 * Fence ids by tag, then externalId (the unique key of a tenant's fences). Two levels rather than one
 * joined key: the maps hold the fences' own tag and externalId strings, where a joined key was one
 * more string per fence, kept for as long as the fence is indexed, for every major GC to mark.
 */
export class TagIds {
  readonly #byTag = new Map<string, Map<string, string>>();

  get(tag: string, externalId: string): string | undefined {
    return this.#byTag.get(tag)?.get(externalId);
  }

  set(tag: string, externalId: string, id: string): void {
    let ids = this.#byTag.get(tag);
    if (!ids) {
      ids = new Map();
      this.#byTag.set(tag, ids);
    }
    ids.set(externalId, id);
  }

  /** Forgets `tag` + `externalId` if it still names `id` (another fence may have taken it since). */
  deleteIf(tag: string, externalId: string, id: string): void {
    const ids = this.#byTag.get(tag);
    if (ids?.get(externalId) !== id) return;
    ids.delete(externalId);
    if (ids.size === 0) this.#byTag.delete(tag);
  }
}
