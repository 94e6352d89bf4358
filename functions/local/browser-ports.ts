import { isFetchBadPort } from "@agent-tools/sdk/registry";

/**
 * Browsers refuse to open a page on the Fetch standard's "bad ports" (`net::ERR_UNSAFE_PORT` in
 * Chromium), each the well-known port of a service a page must not talk to; 6000 (X11), the API's
 * port, is one. The SDK knows the same list, since Node's fetch refuses them too. So `npm start`
 * serves the catalogue on a port of its own when the API's is one of them
 * (docs/web.md#opening-the-catalogue); `catalogue-port.test.ts` checks the list against chromium.
 */
export function browsersRefuse(port: number): boolean {
  return isFetchBadPort(new URL(`http://127.0.0.1:${port}/`));
}

/** Where `npm start` serves the catalogue when the API's port is one browsers refuse. */
export const DEFAULT_CATALOGUE_PORT = 6080;

/**
 * The port of a listener of its own for the catalogue, given the API's port: the one asked for
 * (refused when browsers would refuse it; 0 picks a free one), else DEFAULT_CATALOGUE_PORT when
 * browsers refuse the API's port. Undefined: the API's listener serves the catalogue too.
 */
export function separateCataloguePort(apiPort: number, asked: number | undefined): number | undefined {
  if (asked !== undefined) {
    if (asked !== 0 && browsersRefuse(asked))
      throw new Error(
        `the catalogue port ${asked} is one browsers refuse to open (a "bad ` +
          `port" of the Fetch standard); choose another with WEB_PORT / --web-port`,
      );
    return asked === apiPort && asked !== 0 ? undefined : asked;
  }
  return apiPort !== 0 && browsersRefuse(apiPort) ? DEFAULT_CATALOGUE_PORT : undefined;
}
