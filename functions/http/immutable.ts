/** For URLs naming one published version: its content never changes. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";
