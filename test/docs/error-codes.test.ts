import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../sdk/src/error-codes.js";
import { renderErrorCodesPage } from "./support/error-codes-page.js";
import { readPage } from "./support/markdown-pages.js";

describe("error codes", () => {
  const all = Object.values(ERROR_CODES).flatMap((codes) => Object.keys(codes));

  it("mean one thing each: no code is listed in two areas", () => {
    const repeated = all.filter((code, index) => all.indexOf(code) !== index);
    expect(repeated).toEqual([]);
  });

  it("have one casing, UPPER_SNAKE, and a meaning that is a sentence", () => {
    expect(all.filter((code) => !/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(code))).toEqual([]);
    const meanings = Object.values(ERROR_CODES).flatMap((codes) => Object.values(codes) as string[]);
    expect(meanings.filter((meaning) => !/^[`A-Z].*\.$/.test(meaning))).toEqual([]);
  });

  it("are documented once, in docs/errors.md, generated from the table (regenerate: npx tsx test/docs/write-error-codes.ts)", () => {
    const page = readPage("docs/errors.md");
    expect(page).toBe(renderErrorCodesPage());
    for (const code of all) expect(page.split(`| \`${code}\` |`).length - 1, code).toBe(1);
  });
});
