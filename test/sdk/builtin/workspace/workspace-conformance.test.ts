// The Workspace conformance suite (support/workspace-conformance.ts) against the local workspace,
// the sandboxed local workspace (real bubblewrap) and the in-memory test backend; the Docker
// workspace runs it in docker-workspace.test.ts against a real engine.
import { LocalWorkspace, SandboxedLocalWorkspace } from "@agent-tools/sdk";
import { MemoryWorkspace } from "./support/memory-workspace.js";
import { describeWorkspaceConformance } from "./support/workspace-conformance.js";

describeWorkspaceConformance({ name: "LocalWorkspace", create: (projectDirectory) => new LocalWorkspace({ projectDirectory }) });
describeWorkspaceConformance({
  name: "SandboxedLocalWorkspace",
  create: (projectDirectory) => new SandboxedLocalWorkspace({ projectDirectory }),
});
describeWorkspaceConformance({ name: "in-memory test backend", create: (projectDirectory) => new MemoryWorkspace(projectDirectory) });
