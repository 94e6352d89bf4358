import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temporary root holding a home and a project, each with its `.agent-tools/` folder, and the three settings files' paths. */
export interface SettingsFolders {
  root: string;
  home: string;
  project: string;
  userFile: string;
  projectFile: string;
  localFile: string;
}

/** Creates `<tmp>/<prefix>…/home/.agent-tools` and `<tmp>/<prefix>…/<projectName>/.agent-tools`. */
export async function makeSettingsFolders(prefix: string, projectName = "project"): Promise<SettingsFolders> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const home = join(root, "home");
  const project = join(root, projectName);
  await mkdir(join(home, ".agent-tools"), { recursive: true });
  await mkdir(join(project, ".agent-tools"), { recursive: true });
  return {
    root,
    home,
    project,
    userFile: join(home, ".agent-tools", "settings.json"),
    projectFile: join(project, ".agent-tools", "settings.json"),
    localFile: join(project, ".agent-tools", "settings.local.json"),
  };
}
