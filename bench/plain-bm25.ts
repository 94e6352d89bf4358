/** Textbook Okapi BM25 over one field, the baseline. */
export class PlainBm25 {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];
  private readonly averageLength: number;

  constructor(documents: [string, string][]) {
    for (const [id, text] of documents) {
      const words = plainWords(text);
      const index = this.ids.push(id) - 1;
      this.lengths.push(words.length);
      for (const word of words) {
        const posting = this.postings.get(word) ?? new Map<number, number>();
        posting.set(index, (posting.get(index) ?? 0) + 1);
        this.postings.set(word, posting);
      }
    }
    this.averageLength = this.lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, this.lengths.length);
  }

  search(q: string, limit: number): string[] {
    const scores = new Map<number, number>();
    const n = this.ids.length;
    for (const word of new Set(plainWords(q))) {
      const posting = this.postings.get(word);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [document, tf] of posting) {
        const norm = tf + 1.2 * (1 - 0.75 + (0.75 * this.lengths[document]!) / this.averageLength);
        scores.set(document, (scores.get(document) ?? 0) + (idf * tf * 2.2) / norm);
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([document]) => this.ids[document]!);
  }
}

function plainWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}
