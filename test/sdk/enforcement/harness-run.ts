/**
 * The enforcement harness's inside: started by `harness-pass.ts` inside the outer wall
 * (outer-wall.ts), never on the machine itself. For every corpus entry it asks a real
 * PermissionEngine (DEFAULT and ACCEPT_EDITS, no rules) about a real sandboxed `Bash` tool, runs
 * what is allowed with `Bash.call` as an agent would, and records what the run did; then it runs
 * the detector controls.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { Bash } from "../../../sdk/src/builtin/bash/bash-tool.js";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import { PermissionEngine } from "../../../sdk/src/permission/permission-engine.js";
import { PermissionMode } from "../../../sdk/src/permission/types.js";
import { plantCredentialVariables } from "./agent-environment.js";
import { beaconLibrary } from "./beacon-library.js";
import { CanaryDetector, type Canary } from "./canaries.js";
import { DETECTOR_CONTROLS, type DetectorControl } from "./detector-controls.js";
import { buildWorld, type World, type WorldKit } from "./fake-world.js";
import {
  MODES,
  RESULTS_FILE,
  type Decision,
  type EntryResult,
  type HarnessMode,
  type PassConfig,
  type PassResults,
} from "./harness-protocol.js";
import { HOSTILE_CORPUS, type SetupStep } from "./hostile-corpus.js";
import { Listeners } from "./listeners.js";
import { HARNESS_FOLDERS } from "./outer-wall.js";
import { RecordingBackend } from "./recording-backend.js";
import { observeEffects, type RunEffects } from "./run-effects.js";
import { compareSnapshots, hasChanges, takeSnapshot, type SnapshotRoot } from "./tree-snapshot.js";

const ENGINE_MODES: Record<HarnessMode, PermissionMode> = { default: PermissionMode.DEFAULT, acceptEdits: PermissionMode.ACCEPT_EDITS };
/** Long enough for mvn and cargo to start; a command waiting on a socket or a pipe ends here. */
const COMMAND_TIMEOUT_MS = 8_000;
const OUTPUT_EXCERPT = 1_500;

/** A world and the Bash tool working in it. */
interface Session {
  world: World;
  bash: Bash;
  backend: RecordingBackend;
  canaries: CanaryDetector;
  /** A run (or an entry's setup) changed the world: the next entry gets a fresh one. */
  dirty: boolean;
}

interface RunOutcome {
  exitCode: number | undefined;
  output: string;
  effects: RunEffects;
}

class Harness {
  private readonly environmentCanaries = plantCredentialVariables(process.env);
  private worlds = 0;

  private constructor(
    private readonly config: PassConfig,
    private readonly listeners: Listeners,
    private readonly kit: WorldKit,
  ) {}

  static async start(config: PassConfig): Promise<Harness> {
    const libraries = join(config.throwaway, "lib");
    mkdirSync(libraries, { recursive: true });
    mkdirSync(join(config.throwaway, "run"), { recursive: true });
    const listeners = await Listeners.start(
      join(config.throwaway, "run", "docker.sock"),
      `agent-harness-${randomBytes(8).toString("hex")}`,
    );
    await loadBashParser();
    return new Harness(config, listeners, {
      token: randomBytes(8).toString("hex"),
      proofToken: randomBytes(8).toString("hex"),
      listeners: listeners.addresses,
      descriptor: config.descriptor.fd,
      libraryFor: (id) => beaconLibrary(libraries, id),
    });
  }

  newSession(): Session {
    this.worlds += 1;
    const world = buildWorld(join(this.config.throwaway, "worlds", String(this.worlds)), this.kit);
    // The agent's HOME is the fake one: `~` in commands and the SDK's own secret checks both mean it.
    process.env.HOME = world.home;
    const backend = new RecordingBackend({ cwd: world.project });
    const bash = new Bash({ cwd: world.project, sandbox: "required", backend });
    const descriptor: Canary = { value: this.config.descriptor.canary, origin: `fd:${this.config.descriptor.fd}` };
    const canaries = new CanaryDetector([...world.canaries, ...this.environmentCanaries, descriptor]);
    return { world, bash, backend, canaries, dirty: false };
  }

  /** The corpus: decision first, and only what a mode allows runs (once, however many modes allow it). */
  async runCorpus(): Promise<{ results: EntryResult[]; sandboxed: boolean }> {
    const results: EntryResult[] = [];
    let session: Session | undefined;
    for (const [index, entry] of HOSTILE_CORPUS.entries()) {
      if (this.config.only !== undefined && !this.config.only.includes(index)) continue;
      if (session === undefined || session.dirty || entry.setup !== undefined) session = this.newSession();
      if (entry.setup !== undefined) {
        this.applySetup(session.world, entry.setup);
        session.dirty = true;
      }
      const command = this.fill(entry.command, session.world);
      // The progress line the test shows when a pass fails to finish.
      process.stderr.write(`entry ${index}: ${command}\n`);
      const decisions = await decide(session, command);
      if (!MODES.some((mode) => decisions[mode].behavior === "allow")) results.push({ index, command, decisions, ran: false, effects: {} });
      else results.push({ index, command, decisions, ran: true, ...(await this.run(session, command)) });
    }
    return { results, sandboxed: session?.bash.sandboxed ?? false };
  }

  /** Every detector control in a fresh world, by the kind it must show. */
  async runControls(): Promise<PassResults["controls"]> {
    const controls: PassResults["controls"] = {};
    for (const control of DETECTOR_CONTROLS) {
      const session = this.newSession();
      controls[control.kind] = (await this.run(session, this.fill(control.command, session.world), control.alongside)).effects;
    }
    return controls;
  }

  /** One run through `Bash.call`, between snapshots of the project and of every place outside it the outer wall leaves writable. */
  private async run(session: Session, command: string, alongside?: DetectorControl["alongside"]): Promise<RunOutcome> {
    const { world } = session;
    const outsideRoots: SnapshotRoot[] = [
      { path: world.root, exclude: [world.project] },
      { path: this.config.throwaway, exclude: HARNESS_FOLDERS.map((folder) => join(this.config.throwaway, folder)) },
      ...this.config.outsideRoots,
    ];
    const projectBefore = takeSnapshot([{ path: world.project }]);
    const outsideBefore = takeSnapshot(outsideRoots);
    this.listeners.take();
    session.backend.takeLast();
    const [chunk] = await Promise.all([session.bash.call({ command, timeout: COMMAND_TIMEOUT_MS }), this.standIn(world, alongside)]);
    // Let the listeners' accept callbacks run before counting.
    await new Promise((resolve) => setImmediate(resolve));
    const recorded = session.backend.takeLast();
    const projectAfter = takeSnapshot([{ path: world.project }]);
    const projectChanges = compareSnapshots(projectBefore, projectAfter);
    const outsideChanges = compareSnapshots(outsideBefore, takeSnapshot(outsideRoots));
    const text = chunk.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    const effects = observeEffects({
      project: world.project,
      outputs: [text, JSON.stringify(chunk), recorded?.stdout ?? "", recorded?.stderr ?? ""],
      projectBefore,
      projectAfter,
      projectChanges,
      outsideChanges,
      connections: this.listeners.take(),
      canaries: session.canaries,
      beaconToken: this.kit.token,
      proofToken: this.kit.proofToken,
    });
    // A run that changed no file leaves the world as it was (a printed secret changes nothing on disk).
    session.dirty ||= hasChanges(projectChanges) || hasChanges(outsideChanges);
    return { exitCode: recorded?.exitCode, output: text.slice(0, OUTPUT_EXCERPT), effects };
  }

  /** What a control's escaped command would have done, done by the harness itself. */
  private async standIn(world: World, alongside: DetectorControl["alongside"]): Promise<void> {
    if (alongside === "write-outside") writeFileSync(join(world.outside, "escaped.txt"), "written past the sandbox\n");
    if (alongside === "connect") {
      await new Promise<void>((resolve) => {
        const socket = connect(this.listeners.addresses.port, "127.0.0.1", () => socket.end());
        socket.on("close", () => resolve());
        socket.resume();
      });
    }
  }

  private fill(text: string, world: World): string {
    const canary = world.canaries[0]!.value;
    const values: Record<string, string> = {
      HOME: world.home,
      PROJECT: world.project,
      OUTSIDE: world.outside,
      BEACON: world.beacon,
      PORT: String(this.listeners.addresses.port),
      SOCKET: this.listeners.addresses.socketPath,
      ABSTRACT: this.listeners.addresses.abstractName,
      FD: String(this.config.descriptor.fd),
      // Split in two words so that the token appears only when printf runs, never in an echo of the command.
      PROOF: `printf '%s%s\\n' proof- ${this.kit.proofToken}`,
      CANARY: `printf '%s%s\\n' ${canary.slice(0, 8)} ${canary.slice(8)}`,
    };
    return text.replace(/\{\{([A-Z]+)\}\}/g, (whole, name: string) => values[name] ?? whole);
  }

  private applySetup(world: World, setup: readonly SetupStep[]): void {
    for (const step of setup) {
      const path = join(world.project, "file" in step ? step.file : step.link);
      mkdirSync(dirname(path), { recursive: true });
      if ("file" in step) writeFileSync(path, this.fill(step.content, world));
      else symlinkSync(this.fill(step.target, world), path);
    }
  }

  close(): Promise<void> {
    return this.listeners.close();
  }
}

/**
 * The config is the first line on stdin; the test keeps stdin open, so its end means the test is
 * gone (killed, interrupted) and the harness ends with it, its sandboxes with it (--die-with-parent).
 */
function readConfig(): Promise<PassConfig> {
  return new Promise((resolve) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (data: string) => {
      text += data;
      const newline = text.indexOf("\n");
      if (newline >= 0) resolve(JSON.parse(text.slice(0, newline)) as PassConfig);
    });
    process.stdin.on("end", () => process.exit(1));
  });
}

async function decide(session: Session, command: string): Promise<Record<HarnessMode, Decision>> {
  const analysis = await session.bash.analyse(command);
  const rules = analysis.commands.map((analysed) => analysed.readOnlyRule).join(", ");
  const decisions = {} as Record<HarnessMode, Decision>;
  for (const mode of MODES) {
    const engine = new PermissionEngine({ mode: ENGINE_MODES[mode], workingDirectories: [session.world.project] });
    const decision = await engine.checkPermission(session.bash, { command });
    const reason = `${decision.reason ?? decision.message}${decision.behavior === "allow" ? ` [${rules}]` : ""}`;
    decisions[mode] = { behavior: decision.behavior, reason };
  }
  return decisions;
}

const started = performance.now();
const config = await readConfig();
const harness = await Harness.start(config);
const { results, sandboxed } = await harness.runCorpus();
const controls = await harness.runControls();
await harness.close();
const passResults: PassResults = {
  pass: config.pass,
  uid: process.getuid?.() ?? -1,
  sandboxed,
  results,
  controls,
  elapsedMs: Math.round(performance.now() - started),
};
writeFileSync(join(config.throwaway, RESULTS_FILE), JSON.stringify(passResults));
process.exit(0);
