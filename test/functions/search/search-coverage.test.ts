// Ranking that covers a request, rule by rule as data (docs/search.md, "Ranking that covers a
// request"): each query finds what it needs only through the rule it names; with the rule off
// (diversify.ts, query-plan.ts, query-likelihood.ts's name forms), its expectation fails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchableEntry } from "../../../functions/search/search-document.js";
import { ToolSearchIndex } from "../../../functions/search/tool-search-index.js";

const tool = (tool_id: string, tool_search_description: string, tool_type = "web"): SearchableEntry => ({
  tool_id,
  tool_search_description,
  tool_type,
});

const CATALOGUE: SearchableEntry[] = [
  // Five ways to validate emails, one tool to fetch orders, and tools that share its words: a
  // request that dwells on the emails would get five validators, and no way to fetch the order.
  tool("email-validator", "Validates the syntax, domain and mailbox of email addresses", "email"),
  tool("email-typo-checker", "Validates the syntax of email addresses and fixes their typos", "email"),
  tool("email-deliverability", "Validates the domain and mailbox of email addresses", "email"),
  tool("email-syntax", "Validates the syntax of email addresses", "email"),
  tool("bulk-email-validation", "Validates the mailboxes of many email addresses", "email"),
  tool("order-fetcher", "Fetches an order of a shop by its number", "commerce"),
  tool("feed-fetcher", "Fetches RSS feeds"),
  tool("page-fetcher", "Fetches web pages"),
  tool("list-sorter", "Sorts a list in ascending or descending order", "data"),
  tool("pizza-order", "Places a pizza order", "food"),
  // Two clones and a neighbour: the clones are one result.
  tool("csv-cleaner", "Removes empty rows and trims the cells of CSV files", "data"),
  tool("csv-cleaner-pro", "Removes empty rows and trims the cells of CSV files", "data"),
  tool("csv-row-filter", "Removes CSV rows that match a pattern", "data"),
  // A name that only stems like the request's word, and the tool the request is about.
  tool("passbook-list-passes", "Lists the tickets kept in a wallet", "travel"),
  tool("football-coach", "Drills that improve passing for young players", "sports"),
  // A quoted value that names another tool's words.
  tool("address-lookup", "Finds postal addresses with their zip codes and cities", "geo"),
  tool("coach-cities", "Coach stops and cities along the Pacific Highway coast", "travel"),
];

// An id whose parts look like another tool's name, in a catalogue of few tools (where every
// part is a rare word).
const ID_CATALOGUE: SearchableEntry[] = [
  tool("mv-cx-sz-converter", "Converts MV, CX and SZ files to MV5 and CX3", "media"),
  tool("epidemiology-records", "Epidemiological records by region", "health"),
  tool("csv-cleaner", "Removes empty rows and trims the cells of CSV files", "data"),
  tool("pizza-order", "Places a pizza order", "food"),
];

let index: ToolSearchIndex;
beforeAll(() => {
  index = ToolSearchIndex.build(CATALOGUE);
});
afterAll(() => {
  index?.close();
});

const ids = (q: string, limit = 5) => index.search({ q, limit }).map((hit) => hit.tool_id);

describe("ranking that covers a request", () => {
  it("a request of two asks gets a tool for each near the top, the whole request's best first", () => {
    const found = ids("validate these email addresses, checking their syntax, domains and mailboxes, then fetch order 67890", 3);
    expect(found[0]).toBe("email-validator");
    expect(found).toContain("order-fetcher");
    // One ask alone: no slot given away.
    expect(ids("validate these email addresses, checking their syntax, domains and mailboxes", 6)).not.toContain("order-fetcher");
  });

  it("clones are one result naming the others, and the next slot goes to another tool", () => {
    const [first, second] = index.search({ q: "remove empty rows from csv files and trim cells", limit: 2 });
    expect([first!.tool_id, ...first!.similar_tool_ids!].sort()).toEqual(["csv-cleaner", "csv-cleaner-pro"]);
    expect(second!.tool_id).toBe("csv-row-filter");
  });

  it("a name is matched by its words, not by what they stem to", () => {
    expect(ids("work on their passing")[0]).toBe("football-coach");
  });

  it("quoted values weigh less than the words of the ask", () => {
    expect(ids("find addresses on 'Pacific Highway Coast' with their cities")[0]).toBe("address-lookup");
  });

  it("an id is a value too: it and its parts weigh less than the words of the ask", () => {
    const small = ToolSearchIndex.build(ID_CATALOGUE);
    expect(small.search({ q: "Retrieve the epidemiological data from location sZ3MV5CX", limit: 1 })[0]?.tool_id).toBe(
      "epidemiology-records",
    );
    small.close();
  });

  it("pages of one request rank alike, however many results are asked for", () => {
    const q = "validate email addresses, then fetch an order. Finally clean csv files";
    const all = index.search({ q, limit: 10 });
    for (const limit of [1, 3, 6]) expect(index.search({ q, limit })).toEqual(all.slice(0, limit));
  });
});
