/** The publisher name of the admin token (the registry's original write token). */
export const ADMIN_PUBLISHER = "admin";

const PUBLISHER_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** What is wrong with `name` as a publisher name, in words; undefined when it is valid. */
export function publisherNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return "it must be a string";
  if (!PUBLISHER_NAME.test(name)) return 'it must be 1-63 lowercase letters, digits or "-", starting with a letter or digit (e.g. "acme")';
  if (name === ADMIN_PUBLISHER) return `"${ADMIN_PUBLISHER}" is the registry's own admin token`;
  return undefined;
}

export function isPublisherName(name: string): boolean {
  return publisherNameProblem(name) === undefined;
}
