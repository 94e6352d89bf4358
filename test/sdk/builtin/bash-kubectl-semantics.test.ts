import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine } from "@agent-tools/sdk";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import { temporaryDirectory } from "./support.js";

/**
 * kubectl as it behaves (issue 24, class 5): the secret resource in every spelling kubectl
 * normalises, and template files, which kubectl reads and prints around the objects. Commands are
 * only decided, never run.
 */
const project = temporaryDirectory("builtin-kubectl-");
// A credential by content under a name no list knows, and a plain template.
writeFileSync(join(project.path, "settings.conf"), "password: hunter22\n");
writeFileSync(join(project.path, "pods.tmpl"), "{{range .items}}{{.metadata.name}}\n{{end}}");
const bash = new Bash({ cwd: project.path, sandbox: "off" });
const decide = (command: string) => new PermissionEngine({ workingDirectories: [project.path] }).checkPermission(bash, { command });
beforeAll(async () => {
  await loadBashParser();
});
afterAll(() => project.remove());

describe("kubectl secrets in every spelling", () => {
  it.each([
    "secrets",
    "secret",
    "Secret",
    "SECRETS",
    "secrets.",
    "secrets.v1.",
    "secret.v1",
    "secret/db",
    "pods,secrets",
    "sealedsecrets.bitnami.com",
  ])("kubectl get %s lists names, and -o yaml prints the data", async (resource) => {
    expect(await bash.checkReadOnly({ command: `kubectl get ${resource}` })).toBe(true);
    expect(await bash.checkReadOnly({ command: `kubectl get ${resource} -o name` })).toBe(true);
    for (const format of ["-o yaml", "-ojson", "--output=jsonpath={.data}", "-o go-template-file=pods.tmpl", "-o custom-columns=D:.data"])
      expect(await bash.checkReadOnly({ command: `kubectl get ${resource} ${format}` }), format).toBe(false);
  });

  it("treats other resources that merely contain the word as what they are", async () => {
    expect(await bash.checkReadOnly({ command: "kubectl get secretstores -o yaml" })).toBe(true);
    expect(await bash.checkReadOnly({ command: "kubectl get configmaps -o yaml" })).toBe(true);
  });
});

describe("kubectl template files are reads of those files", () => {
  it.each([
    "kubectl get pods -o go-template-file=settings.conf",
    "kubectl get pods -o jsonpath-file=settings.conf",
    "kubectl get pods -o custom-columns-file=settings.conf",
    "kubectl get pods -o go-template-file --template settings.conf",
    "kubectl describe pods -o templatefile=settings.conf",
  ])("%j asks: the template holds a credential", async (command) => {
    const decision = await decide(command);
    expect(decision.behavior).toBe("ask");
    expect(decision.message).toContain("settings.conf");
  });

  it.each(["kubectl get pods -o go-template-file=pods.tmpl", "kubectl get pods -o go-template --template '{{.kind}}'"])(
    "%j stays read-only",
    async (command) => {
      expect((await decide(command)).behavior).toBe("allow");
    },
  );

  it("asks for kubectl config view --raw and --flatten, which print the credentials", async () => {
    for (const option of ["--raw", "--flatten"]) expect(await bash.checkReadOnly({ command: `kubectl config view ${option}` })).toBe(false);
    expect(await bash.checkReadOnly({ command: "kubectl config view --minify" })).toBe(true);
  });
});
