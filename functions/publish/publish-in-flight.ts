import type { StoredVersion } from "../storage/entry-reads.js";

/**
 * How long a pending version may still be finishing in the request that uploaded it (the upload
 * Lambda's timeout is 29 s). Within it, a status change or a delete of that version is refused
 * (409, retry): the uploader's last steps write the pointer from the entry it uploaded, and would
 * undo a yank made in between. Older pending versions were cut short; the doctor finishes them.
 */
export const PUBLISH_IN_FLIGHT_MS = 60_000;

export function publishInFlight(stored: StoredVersion, now = Date.now()): boolean {
  return stored.pending && now - Date.parse(stored.entry.updated_at) < PUBLISH_IN_FLIGHT_MS;
}
