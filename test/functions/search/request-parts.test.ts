// How a request is read (functions/search/request-parts.ts), as data: where its asks begin and
// end, and which of its words are values rather than words about the tool wanted.
import { describe, expect, it } from "vitest";
import { requestParts } from "../../../functions/search/request-parts.js";

/** The request's asks, each its words, values in brackets. */
const asks = (text: string): string[] => {
  const byClause = new Map<number, string[]>();
  for (const part of requestParts(text))
    byClause.set(part.clause, [...(byClause.get(part.clause) ?? []), part.value ? `[${part.text}]` : part.text]);
  return [...byClause.values()].map((words) => words.join(" "));
};

const ASKS: [rule: string, request: string, expected: string[]][] = [
  ["a sentence ends an ask", "Check the database. Update the design", ["Check the database", "Update the design"]],
  ["a question mark and a semicolon end one too", "Is it up? restart it; log it", ["Is it up", "restart it", "log it"]],
  ["a line ends an ask", "resize the photo\ncompress the video", ["resize the photo", "compress the video"]],
  [
    "'then' starts the next ask",
    "validate these email addresses and then fetch order 12 from the API",
    ["validate these email addresses", "fetch order 12 from the API"],
  ],
  [
    "'also', 'additionally', 'finally' do too",
    "Get the weather, also find a hotel. Additionally book a taxi. Finally, pay",
    ["Get the weather", "find a hotel", "book a taxi", "pay"],
  ],
  [
    "'as well as' adds an ask",
    "the directors of the movie as well as the details of a restaurant",
    ["the directors of the movie", "the details of a restaurant"],
  ],
  ["', and' joins two clauses", "suggest some music, and tell me the news", ["suggest some music", "tell me the news"]],
  ["a plain 'and' joins two objects of one ask", "merge and split PDF files", ["merge and split PDF files"]],
  ["a decimal point ends nothing", "use version 2.5 of the parser", ["use version 2.5 of the parser"]],
];

const VALUES: [rule: string, request: string, expected: string[]][] = [
  [
    "double quotes hold a value",
    'addresses matching "Pacific Highway" with zip codes',
    ["addresses matching [Pacific Highway] with zip codes"],
  ],
  ["single quotes too, but not an apostrophe", "the lion's heart named 'Leo'", ["the lion's heart named [Leo]"]],
  ["typographic quotes too", "the film “Pulp Fiction” and ‘Jaws’", ["the film [Pulp Fiction] and [Jaws]"]],
  ["three digits make a number or an id", "order 67890 for P123456", ["order [67890] for [P123456]"]],
  ["two runs of digits among letters make an id", "location sZ3MV5CX", ["location [sZ3MV5CX]"]],
  ["a short name with digits stays a word", "convert mp3 to base64 with word2vec", ["convert mp3 to base64 with word2vec"]],
];

describe("request parts", () => {
  it.each(ASKS)("%s: %j → %j", (_rule, request, expected) => {
    expect(asks(request)).toEqual(expected);
  });

  it.each(VALUES)("%s: %j → %j", (_rule, request, expected) => {
    expect(asks(request)).toEqual(expected);
  });
});
