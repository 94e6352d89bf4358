const NUMBER = new Intl.NumberFormat("en");

export interface ResultCount {
  /** 1-based position of the page's first result. */
  first: number;
  /** How many results the page shows. */
  shown: number;
  /** How many match in all (a search: at most the ranking's depth). */
  total: number;
  /** A search whose ranking was cut at its depth: more tools may match. */
  capped: boolean;
  /** Matches of a search rather than a listing. */
  search: boolean;
}

/**
 * The line above the results: "1 tool", "3 matching tools" when one page holds them all, else
 * "21–40 of 57 tools", or "of the 100 best matches" when a search's ranking was cut.
 */
export function resultCountText({ first, shown, total, capped, search }: ResultCount): string {
  const noun = (count: number) => `${search ? "matching " : ""}${count === 1 ? "tool" : "tools"}`;
  if (first === 1 && shown === total && !capped) return `${NUMBER.format(total)} ${noun(total)}`;
  const range = shown === 1 ? NUMBER.format(first) : `${NUMBER.format(first)}–${NUMBER.format(first + shown - 1)}`;
  return capped ? `${range} of the ${NUMBER.format(total)} best matches` : `${range} of ${NUMBER.format(total)} ${noun(total)}`;
}
