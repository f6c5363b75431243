import { isRestricted, type KeyRestrictions, originAllowed } from './key-restrictions.js';

/** What the policy needs: every tenant's key restrictions, and a number that changes when any does. */
export interface RestrictionsSource {
  all(): Promise<Array<KeyRestrictions | undefined>>;
  generation(): number;
}

/** How long an answer stands without a change report (other processes' writes reach us by polling). */
const TTL_MS = 2000;

/**
 * Which origins a CORS preflight may be answered for. A preflight carries no key, so it cannot be
 * judged by one tenant's list: an origin is allowed while some tenant could serve it, that is while
 * any tenant has no restrictions at all or lists the origin. A page on a site no tenant allows then
 * gets no allow headers, and the browser never sends the request.
 */
export class PreflightPolicy {
  #view: { unrestricted: boolean; lists: KeyRestrictions[]; at: number; generation: number } | null = null;
  #loading: Promise<void> | null = null;

  constructor(
    private readonly source: RestrictionsSource,
    private readonly now: () => number,
  ) {}

  allowed(origin: string): boolean | Promise<boolean> {
    const v = this.#view;
    if (v && v.generation === this.source.generation() && this.now() - v.at < TTL_MS) return this.#judge(origin);
    this.#loading ??= this.#load().finally(() => {
      this.#loading = null;
    });
    return this.#loading.then(() => this.#judge(origin));
  }

  #judge(origin: string): boolean {
    const v = this.#view!;
    return v.unrestricted || v.lists.some((r) => originAllowed(r, origin));
  }

  async #load(): Promise<void> {
    const generation = this.source.generation();
    const all = await this.source.all();
    const lists = all.filter(isRestricted);
    this.#view = { unrestricted: lists.length < all.length, lists, at: this.now(), generation };
  }
}
