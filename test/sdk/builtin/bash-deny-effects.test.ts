import { afterAll, describe, expect, it } from "vitest";
import { Bash, PermissionEngine, PermissionMode, type PermissionEngineOptions } from "@agent-tools/sdk";
import { COMMAND_SITES, EQUIVALENT_PROGRAMS } from "../../../sdk/src/builtin/shell/policy/nested-commands.js";
import { temporaryDirectory } from "./support.js";

const project = temporaryDirectory("builtin-bash-deny-effects-");
afterAll(() => project.remove());

const bash = new Bash({ cwd: project.path, sandbox: "off" });

function decide(command: string, options: PermissionEngineOptions = {}) {
  return new PermissionEngine({ workingDirectories: [project.path], ...options }).checkPermission(bash, { command });
}

const MODES = [PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS, PermissionMode.DONT_ASK, PermissionMode.BYPASS];

describe("a deny rule matches every way its effect is reached, in every mode", () => {
  it.each(COMMAND_SITES.map((site) => [site.example, site.reason] as const))("Bash(git push:*) denies %j (%s)", async (command) => {
    for (const mode of MODES) expect((await decide(command, { deny: ["Bash(git push:*)"], mode })).behavior).toBe("deny");
  });

  it.each(EQUIVALENT_PROGRAMS.map((entry) => [entry.sameAs, entry.program, entry.reason] as const))(
    "Bash(%s:*) denies %s (%s)",
    async (sameAs, program) => {
      for (const mode of MODES) expect((await decide(`${program} id`, { deny: [`Bash(${sameAs}:*)`], mode })).behavior).toBe("deny");
    },
  );

  it.each([
    ["kubectl delete:*", "kubectl -n prod delete pod web-1"],
    ["kubectl delete:*", "kubectl --context=prod --namespace web delete deployment api"],
    ["kubectl delete:*", "kubectl --kubeconfig /tmp/k delete ns x"],
    ["terraform destroy:*", "terraform -chdir=infra apply -destroy -auto-approve"],
    ["terraform destroy:*", "tofu apply -destroy"],
    ["helm uninstall:*", "helm -n prod uninstall web"],
    ["docker rm:*", "docker --context prod container rm web"],
    ["git push:*", "git -c alias.ship=push ship origin main"],
    ["git push:*", "git bisect run sh -c 'git push --force'"],
    ["git push:*", "sudo -u app git rebase --exec='git push' main"],
    ["rm:*", "run0 rm -rf /srv/app"],
  ])("Bash(%s) denies %j", async (rule, command) => {
    expect(await decide(command, { deny: [`Bash(${rule})`] })).toMatchObject({ behavior: "deny", reason: `Rule: Bash(${rule})` });
  });

  it.each([
    ["git push:*", "git rebase -i main"],
    ["git push:*", "git submodule foreach git status"],
    ["git push:*", "git bisect run npm test"],
    ["git push:*", "watch -n 5 git status"],
    ["sudo:*", "git status"],
    ["kubectl delete:*", "kubectl -n prod get pods"],
    ["terraform destroy:*", "terraform -chdir=infra plan"],
  ])("Bash(%s) leaves %j alone", async (rule, command) => {
    expect((await decide(command, { deny: [`Bash(${rule})`] })).behavior).not.toBe("deny");
  });

  it("an ask rule matches the same way", async () => {
    const decision = await decide("git submodule foreach 'git push'", { ask: ["Bash(git push:*)"], mode: PermissionMode.BYPASS });
    expect(decision.behavior).not.toBe("allow");
  });
});
