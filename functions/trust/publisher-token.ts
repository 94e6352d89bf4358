import { randomBytes } from "node:crypto";
import { isPublisherName } from "./publisher-name.js";

const PREFIX = "at_";
/** 32 random bytes as base64url, without padding. */
const SECRET_LENGTH = 43;

/**
 * A new publisher token: `at_<name>_<43 base64url characters>`. The name in it lets the registry
 * find the stored hash with one lookup; clients treat the whole text as opaque.
 */
export function mintPublisherToken(name: string): string {
  return `${PREFIX}${name}_${randomBytes(32).toString("base64url")}`;
}

/** The publisher a token text claims to be, or undefined when it has no publisher token's shape. */
export function publisherOfToken(token: string): string | undefined {
  if (!token.startsWith(PREFIX) || token.length < PREFIX.length + 2 + SECRET_LENGTH) return undefined;
  const separator = token.length - SECRET_LENGTH - 1;
  if (token[separator] !== "_" || !/^[A-Za-z0-9_-]+$/.test(token.slice(separator + 1))) return undefined;
  const name = token.slice(PREFIX.length, separator);
  return isPublisherName(name) ? name : undefined;
}
