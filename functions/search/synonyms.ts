import { termForms, type TermForms } from "./search-terms.js";

/**
 * Words that name the same need in a tool search. A query term in a group (or a phrase of several
 * words, such as "how many", whose words alone are stop words) also looks for the group's other words (at a
 * lower weight than the word itself, see tool-search-index.ts). Groups
 * are general English usage in tool descriptions, never tuned to one benchmark: a word belongs
 * here only when a user could type either word for the same tool. `search-ranking.test.ts` runs
 * examples for them.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ["image", "picture", "photo", "img"],
  ["video", "movie", "clip", "footage"],
  ["audio", "sound"],
  ["speech", "voice", "spoken"],
  ["transcribe", "transcription", "dictation"],
  ["delete", "remove", "erase"],
  ["create", "make", "generate", "produce"],
  ["search", "find", "lookup", "locate"],
  ["summary", "summarize", "summarise", "digest", "abstract"],
  ["convert", "transform", "conversion"],
  ["download", "fetch", "retrieve"],
  ["classify", "categorize", "categorise", "classification", "categorization"],
  ["detect", "detection", "recognize", "recognise", "recognition", "identify"],
  ["translate", "translation"],
  ["compress", "shrink", "zip"],
  ["resize", "rescale", "scale"],
  ["email", "mail", "e-mail"],
  ["message", "chat"],
  ["document", "doc", "file"],
  ["spreadsheet", "csv", "excel", "xlsx"],
  ["car", "vehicle", "automobile"],
  ["person", "people", "human", "pedestrian"],
  ["sentiment", "emotion", "opinion"],
  ["weather", "forecast"],
  ["schedule", "calendar", "appointment"],
  ["price", "cost"],
  ["stock", "share", "equity"],
  ["money", "currency"],
  ["answer", "reply", "respond"],
  ["question", "query"],
  ["write", "compose"],
  ["read", "parse", "extract"],
  ["count", "tally", "how many", "number of"],
  ["fix", "repair", "correct"],
];

/** Each stemmed term's alternatives (their forms as the index makes them). */
export class SynonymTable {
  private readonly alternatives = new Map<string, TermForms[]>();
  private readonly phrases: { words: RegExp; terms: TermForms[] }[] = [];

  constructor(groups: readonly (readonly string[])[] = SYNONYM_GROUPS) {
    for (const group of groups) {
      const single = uniqueForms(group.filter((word) => !word.includes(" ")).flatMap((word) => formsOf(word)));
      for (const forms of single) {
        const others = single.filter((other) => other.stemmed !== forms.stemmed);
        this.alternatives.set(forms.stemmed, uniqueForms([...(this.alternatives.get(forms.stemmed) ?? []), ...others]));
      }
      for (const phrase of group.filter((word) => word.includes(" "))) {
        this.phrases.push({
          words: new RegExp(`(?<![\\p{L}\\p{N}])${phrase.split(" ").join("\\s+")}(?![\\p{L}\\p{N}])`, "iu"),
          terms: single,
        });
      }
    }
  }

  /** The other words of a stemmed term's groups. */
  of(stemmed: string): readonly TermForms[] {
    return this.alternatives.get(stemmed) ?? [];
  }

  /** The words of the groups whose phrases occur in the query's text. */
  ofPhrasesIn(text: string): TermForms[] {
    return this.phrases.filter((phrase) => phrase.words.test(text)).flatMap((phrase) => phrase.terms);
  }
}

function formsOf(word: string): TermForms[] {
  const forms = termForms(word.replace(/[^\p{L}\p{N}]/gu, ""));
  return forms === null ? [] : [forms];
}

function uniqueForms(list: TermForms[]): TermForms[] {
  return [...new Map(list.map((forms) => [forms.stemmed, forms])).values()];
}
