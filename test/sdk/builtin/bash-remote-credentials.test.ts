import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine } from "@agent-tools/sdk";
import { temporaryDirectory } from "./support.js";

// Two repositories built with fs calls: one whose remote URL carries a token, one whose does not.
const root = temporaryDirectory("builtin-bash-remote-credentials-");
function repository(name: string, url: string): string {
  const top = join(root.path, name);
  mkdirSync(join(top, ".git", "refs", "heads"), { recursive: true });
  mkdirSync(join(top, ".git", "objects"));
  writeFileSync(join(top, ".git", "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(
    join(top, ".git", "config"),
    `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`,
  );
  return top;
}
const withToken = repository("with-token", "https://ghp_0123456789abcdefABCDEF@github.com/o/r.git");
const plain = repository("plain", "git@github.com:o/r.git");
afterAll(() => root.remove());

const decide = (cwd: string, command: string) =>
  new PermissionEngine({ workingDirectories: [cwd] }).checkPermission(new Bash({ cwd, sandbox: "off" }), { command });

describe("printing remote URLs that hold a credential asks", () => {
  it.each(["git remote -v", "git remote get-url origin", "git remote show origin", "git config --get remote.origin.url"])(
    "%j asks where the URL carries a token, and names the setting",
    async (command) => {
      const decision = await decide(withToken, command);
      expect(decision).toMatchObject({ behavior: "ask", bypassImmune: true });
      expect(decision.message).toContain("remote.origin.url");
      expect((await decide(plain, command)).behavior).toBe("allow");
    },
  );

  it("listing remote names prints no URL", async () => {
    expect((await decide(withToken, "git remote")).behavior).toBe("allow");
  });
});
