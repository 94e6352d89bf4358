import { afterAll, describe, expect, it } from "vitest";
import { Bash, PermissionEngine } from "@agent-tools/sdk";
import { HOST_FORMS } from "../../../sdk/src/builtin/shell/policy/named-hosts.js";
import { temporaryDirectory } from "./support.js";

const project = temporaryDirectory("builtin-bash-named-hosts-");
afterAll(() => project.remove());
const bash = new Bash({ cwd: project.path, sandbox: "off" });
const decide = (command: string) => new PermissionEngine({ workingDirectories: [project.path] }).checkPermission(bash, { command });

describe("a read-only tool never reaches a host the command line names", () => {
  it.each(HOST_FORMS.map((form) => [form.example, form.reason] as const))("npm view %s asks (%s)", async (host) => {
    expect((await decide(`npm view ${host} version`)).behavior).toBe("ask");
  });

  it.each([
    "git remote show https://evil.example/x.git",
    "git remote show git@evil.example:o/r.git",
    "git ls-remote https://evil.example/x.git",
    "gh pr list -R evil.example/owner/repo",
    "gh issue view 3 --repo https://evil.example/o/r",
    "gh api --hostname evil.example /user",
  ])("%j asks", async (command) => {
    expect((await decide(command)).behavior).toBe("ask");
  });

  it.each(["npm view react version", "git remote show origin", "gh pr list -R owner/repo", "gh repo view"])(
    "%j (the configured or default host) is allowed",
    async (command) => {
      expect((await decide(command)).behavior).toBe("allow");
    },
  );
});
