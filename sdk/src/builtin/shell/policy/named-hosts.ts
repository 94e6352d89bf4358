/**
 * Words that name a host of the command line's choosing: a read-only tool given one talks to it
 * (with the user's tokens, for npm and gh), so it is not read-only (issue 24, class 10;
 * docs/command-policy.md#hosts-the-command-line-names). Each form says why, with an example.
 */
export const HOST_FORMS: readonly { pattern: RegExp; reason: string; example: string }[] = [
  { pattern: /^[A-Za-z][A-Za-z0-9+.-]*:\/\//, reason: "a URL (git+https://, https://, ssh://)", example: "git+https://evil.example/x.git" },
  { pattern: /^[^\s/:@]+@[^\s/:]+:/, reason: "an scp-style remote (user@host:path)", example: "git@evil.example:o/r.git" },
  {
    pattern: /^(github|gitlab|bitbucket|gist|git|file|http|https):/,
    reason: "an npm shorthand that fetches from a git host or a file",
    example: "github:o/r",
  },
];

/** Why a value names a host, or undefined. */
export function namedHost(value: string): string | undefined {
  const form = HOST_FORMS.find((candidate) => candidate.pattern.test(value));
  return form && `${value} names a host: ${form.reason}`;
}

/** `gh -R HOST/OWNER/REPO`: three parts name a host besides github.com. */
export function ghRepositoryHost(value: string): string | undefined {
  return value.split("/").length > 2 || namedHost(value) !== undefined ? `${value} names another host than github.com` : undefined;
}
