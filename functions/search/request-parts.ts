/**
 * How a request is read before its words become terms: which parts are its asks (a request that
 * needs several tools says so in several clauses: "Check the status of the database. Then
 * validate the design… Finally, update…"), and which words are values it passes rather than
 * what it wants done (a quoted "Pacific Highway", an id like 'sZ3MV5CX' or 67890). Both as data,
 * each rule with its reason; examples in test/functions/search/request-parts.test.ts.
 */

/** One piece of a request: its text, the ask (clause) it belongs to, and whether it is a value. */
export interface RequestPart {
  text: string;
  clause: number;
  value: boolean;
}

/**
 * Where one ask ends and the next begins. A sentence says one thing; a conjunction that starts a
 * second request inside a sentence does too. Plain "and" is left alone: it joins the objects of
 * one ask ("merge and split PDFs") more often than two asks.
 */
const CLAUSE_BOUNDARIES: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /[.!?;]+(?=\s|$)/u, reason: "a sentence or a semicolon ends an ask" },
  { pattern: /\n+/u, reason: "a line ends an ask" },
  {
    pattern:
      /,?\s+(?:and\s+)?(?:then|also|additionally|afterwards|after that|finally|next|plus|furthermore|moreover|in addition|besides|lastly|secondly|thirdly)\b,?/iu,
    reason: "words that start the next ask",
  },
  { pattern: /,?\s+as well as\b/iu, reason: "'as well as' adds a second ask" },
  { pattern: /,\s+and\s+/iu, reason: "', and' joins two clauses (a plain 'and' joins two objects)" },
];

/**
 * Quoted text: a value passed to the tool (a title, an address, a message), not words about what
 * the tool does. An opening quote follows a non-word character (so "lion's" is no quote), and the
 * same kind of quote closes it.
 */
const QUOTED =
  /(?<![\p{L}\p{N}])(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|“([^”\n]{1,200})”|‘([^’\n]{1,200})’|`([^`\n]{1,200})`)(?![\p{L}\p{N}])/gu;

/**
 * A word that is a value: it has three digits or more (67890, P123456, 2021), or letters with two
 * runs of digits (sZ3MV5CX); "mp3", "base64", "word2vec" stay words.
 */
const VALUE_WORD = /^(?:(?:\D*\d){3}|(?=.*\p{L})\D*\d+\D+\d)/u;

/** The parts of a request, in order. */
export function requestParts(text: string): RequestPart[] {
  const parts: RequestPart[] = [];
  let clause = 0;
  let at = 0;
  const pushText = (piece: string) => {
    for (const [i, sentence] of splitClauses(piece).entries()) {
      if (i > 0) clause++;
      for (const word of sentence.split(/\s+/u)) {
        if (word !== "") parts.push({ text: word, clause, value: VALUE_WORD.test(word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")) });
      }
    }
  };
  for (const match of text.matchAll(QUOTED)) {
    pushText(text.slice(at, match.index));
    parts.push({ text: match.slice(1).find((group) => group !== undefined)!, clause, value: true });
    at = match.index + match[0].length;
  }
  pushText(text.slice(at));
  return parts;
}

/** `text` cut at every clause boundary. */
function splitClauses(text: string): string[] {
  let pieces = [text];
  for (const { pattern } of CLAUSE_BOUNDARIES) {
    const global = new RegExp(pattern.source, `${pattern.flags}g`);
    pieces = pieces.flatMap((piece) => piece.split(global));
  }
  return pieces;
}
