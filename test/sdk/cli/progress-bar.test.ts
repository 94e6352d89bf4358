/**
 * Progress bars for large transfers: bytes and rate on one redrawn stderr line, only on a terminal.
 * Unit cases on a fake clock, then `publish` and `run` of a 5 MiB tool against a real registry.
 */
import { randomBytes } from "node:crypto";
import { cp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../../sdk/src/cli/cli-io.js";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import { formatBytes, progressBar } from "../../../sdk/src/cli/progress-bar.js";
import { runCli } from "../../../sdk/src/cli/run-cli.js";
import { FIXTURE_TOOLS_DIR } from "../../support/bundles.js";
import { registryForFile } from "../../support/registry-for-file.js";

function terminal(interactive: boolean) {
  let err = "";
  let out = "";
  const io: CliIo = { out: (text) => void (out += text), err: (text) => void (err += text), cwd: tmpdir(), interactive };
  return { io, err: () => err, out: () => out };
}

describe("progressBar", () => {
  it("draws bytes, total and rate, at most every interval, and ends the line", () => {
    let clock = 0;
    const screen = terminal(true);
    const bar = progressBar(screen.io, "Uploading x", { now: () => clock });
    bar.update(0, 4_200_000);
    clock = 50;
    bar.update(1_000_000, 4_200_000); // within 100 ms of the last draw: skipped
    clock = 1000;
    bar.update(2_100_000, 4_200_000);
    clock = 2000;
    bar.update(4_200_000, 4_200_000);
    bar.finish();
    const frames = screen.err().split("\r").filter(Boolean);
    expect(frames).toHaveLength(3);
    expect(frames[1]).toBe("Uploading x [############............] 2.1 MB / 4.2 MB  2.1 MB/s\u001b[K");
    expect(frames[2]).toBe("Uploading x [########################] 4.2 MB / 4.2 MB  2.1 MB/s\u001b[K\n");
  });

  it("stays quiet off a terminal and for small transfers", () => {
    const piped = terminal(false);
    const quiet = progressBar(piped.io, "x");
    quiet.update(5_000_000, 5_000_000);
    quiet.finish();
    const small = terminal(true);
    const tiny = progressBar(small.io, "x");
    tiny.update(1000, 1000);
    tiny.finish();
    expect([piped.err(), small.err()]).toEqual(["", ""]);
    expect([formatBytes(999), formatBytes(1500), formatBytes(52_428_800)]).toEqual(["999 B", "1.5 kB", "52.4 MB"]);
  });
});

describe("publish and run of a large tool on a terminal", () => {
  const suite = registryForFile({}, "agent-tools-progress-");

  it("shows upload and download progress with bytes and rate", async () => {
    const folder = join(suite.folder, "big-tool");
    await cp(join(FIXTURE_TOOLS_DIR, "text-stats"), folder, { recursive: true });
    await writeFile(join(folder, "code", "weights.bin"), randomBytes(5 * 1024 * 1024));
    const screen = terminal(true);
    const args = ["--registry", suite.registry.url, "--token", suite.registry.token];
    expect(await runCli(["publish", folder, ...args], screen.io)).toBe(EXIT.ok);
    expect(screen.out()).toMatch(/^Published text-stats@1\.0\.0 via presigned upload/);
    expect(screen.err()).toMatch(/\rUploading text-stats \[#+\] 5\.\d MB \/ 5\.\d MB {2}[\d.]+ [kMG]?B\/s\u001b\[K\n$/);

    const running = terminal(true);
    const input = JSON.stringify({ text: "a b a" });
    expect(
      await runCli(
        ["run", "text-stats@1.0.0", "--input", input, "--cache-dir", join(suite.folder, "cache"), "--registry", suite.registry.url],
        running.io,
      ),
    ).toBe(EXIT.ok);
    expect(JSON.parse(running.out())).toMatchObject({ word_count: 3 });
    expect(running.err()).toMatch(/\rDownloading text-stats@1\.0\.0 \[#+\] 5\.\d MB \/ 5\.\d MB {2}[\d.]+ [kMG]?B\/s\u001b\[K\n$/);
  });
});
