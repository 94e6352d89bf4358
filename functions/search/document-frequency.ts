/** How many documents use each term, kept in step as documents are set and deleted. */
export class DocumentFrequency {
  private readonly counts = new Map<string, number>();
  private readonly termsById = new Map<string, readonly string[]>();

  /** Records the distinct `terms` of document `id`, replacing what it had before. */
  set(id: string, terms: readonly string[]): void {
    this.delete(id);
    for (const term of terms) this.counts.set(term, (this.counts.get(term) ?? 0) + 1);
    this.termsById.set(id, terms);
  }

  delete(id: string): void {
    for (const term of this.termsById.get(id) ?? []) {
      const count = (this.counts.get(term) ?? 0) - 1;
      if (count > 0) this.counts.set(term, count);
      else this.counts.delete(term);
    }
    this.termsById.delete(id);
  }

  of(term: string): number {
    return this.counts.get(term) ?? 0;
  }
}
