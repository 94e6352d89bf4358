import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, SandboxDeniedError } from "@agent-tools/sdk";
import { sandboxSupport } from "@agent-tools/sdk/sandbox";
import { cgroupSupport } from "../../../sdk/src/sandbox/sandbox-cgroup.js";
import { writeSandboxTool } from "../support/sandbox-tools.js";
import { TempDirs } from "../support/temp-dirs.js";

/**
 * Totals, not only per-process limits (docs/sandbox.md#limits): the memory of a whole sandbox, the
 * size of its private /tmp, and the size of its state folder. Where the machine cannot enforce a
 * total, the preflight says so instead.
 */
const MiB = 1024 * 1024;
const temp = new TempDirs();
let dir: string;
let tools: AgentTools;

beforeAll(async () => {
  dir = await temp.make();
  tools = new AgentTools({
    cacheDir: join(dir, "cache"),
    sandbox: "required",
    callTimeoutMs: 30_000,
    sandboxLimits: { memoryBytes: 2048 * MiB, totalMemoryBytes: 512 * MiB, tmpBytes: 8 * MiB, stateBytes: 4 * MiB },
  });
});

afterAll(async () => {
  await tools.close();
  await temp.removeAll();
});

/** Touches every page of `n` MiB, so the memory is really used (a fresh bytearray is lazily zero-filled). */
const HOLD = `def hold(n):
    block = bytearray(n * 1024 * 1024)
    block[::4096] = b"x" * (len(block) // 4096)
    return block`;

describe("the memory of a whole sandbox is bounded", () => {
  it("three children holding 400 MiB each under a 512 MiB total: the kernel stops them, not the host", async () => {
    if (!cgroupSupport().memory) {
      expect(sandboxSupport()).toMatchObject({ available: true, notes: expect.arrayContaining([expect.stringMatching(/memory cgroup/)]) });
      return;
    }
    const body = `import os, time
${HOLD}
children = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        kept = hold(400)
        time.sleep(2)
        os._exit(0)
    children.append(pid)
return [os.waitpid(pid, 0)[1] for pid in children]`;
    await tools.add({ path: await writeSandboxTool(dir, "three-children", body) });
    const statuses = (await tools.executeToolById("three-children", {})) as number[];
    expect(statuses).toHaveLength(3);
    expect(statuses.filter((status) => status === 9)).not.toHaveLength(0); // SIGKILL from the cgroup
  });

  it("one process past the total fails naming limits.totalMemoryBytes", async () => {
    if (!cgroupSupport().memory)
      return expect(sandboxSupport()).toMatchObject({ notes: expect.arrayContaining([expect.stringMatching(/memory cgroup/)]) });
    await tools.add({ path: await writeSandboxTool(dir, "one-big", `${HOLD}\nkept = hold(700)\nreturn len(kept)`) });
    const error = await tools.executeToolById("one-big", {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SandboxDeniedError);
    expect((error as SandboxDeniedError).capability).toBe("limits.totalMemoryBytes");
    expect((error as Error).message).toContain("sandboxLimits.totalMemoryBytes");
  });
});

describe("the private /tmp and the state folder have sizes", () => {
  it("/tmp past tmpBytes is full (ENOSPC), and the tool keeps running", async () => {
    const body = `import errno
try:
    with open("/tmp/big", "wb") as f:
        f.write(b"x" * (16 * 1024 * 1024))
    return "written"
except OSError as error:
    return errno.errorcode[error.errno]`;
    await tools.add({ path: await writeSandboxTool(dir, "fills-tmp", body) });
    expect(await tools.executeToolById("fills-tmp", {})).toBe("ENOSPC");
  });

  it("a state folder over stateBytes refuses the next calls until the tool deletes what it kept", async () => {
    const body = `import os
path = os.path.join(os.environ["AGENT_TOOLS_STATE_DIR"], "kept.bin")
if input_data.get("clear"):
    os.remove(path)
    return "cleared"
with open(path, "wb") as f:
    f.write(os.urandom(input_data["mib"] * 1024 * 1024))
return "kept"`;
    await tools.add({ path: await writeSandboxTool(dir, "keeps-state", body) });
    expect(await tools.executeToolById("keeps-state", { mib: 6 })).toBe("kept");
    await sleep(1_100); // measurements are at most once a second
    const refused = await tools.executeToolById("keeps-state", { mib: 1 }).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(SandboxDeniedError);
    expect((refused as SandboxDeniedError).capability).toBe("limits.stateBytes");
    expect((refused as Error).message).toMatch(/holds \d+ bytes, more than the 4194304 allowed/);
    // The way out the message names: a removed tool loses its state folder.
    await tools.remove("keeps-state");
    await tools.add({ path: join(dir, "keeps-state") });
    expect(await tools.executeToolById("keeps-state", { mib: 1 })).toBe("kept");
  });
});
