/**
 * A growable list of (index entry, score) pairs in typed arrays. A one-letter autocomplete query yields
 * 30,000 candidates; typed arrays that are reused across calls keep that free of per-candidate allocation
 * and garbage collection. JavaScript runs one request's search at a time, so one shared list is safe as
 * long as its contents are consumed before the next search starts.
 */
export class CandidateList {
  entries = new Uint32Array(1024);
  scores = new Float64Array(1024);
  /** Candidate positions, for ordering by score without moving the pairs. */
  order = new Uint32Array(1024);
  length = 0;

  /** Empties the list, keeping its capacity. */
  clear(): void {
    this.length = 0;
  }

  /** Appends a candidate, doubling the capacity when full. */
  push(entry: number, score: number): void {
    if (this.length === this.entries.length) this.grow();
    this.entries[this.length] = entry;
    this.scores[this.length] = score;
    this.length++;
  }

  /** `order[0..length)` set to `0..length-1`, ready for `selectTop`. */
  resetOrder(): Uint32Array {
    const order = this.order.subarray(0, this.length);
    for (let k = 0; k < this.length; k++) order[k] = k;
    return order;
  }

  private grow(): void {
    const size = this.entries.length * 2;
    const entries = new Uint32Array(size);
    entries.set(this.entries);
    const scores = new Float64Array(size);
    scores.set(this.scores);
    this.entries = entries;
    this.scores = scores;
    this.order = new Uint32Array(size);
  }
}
