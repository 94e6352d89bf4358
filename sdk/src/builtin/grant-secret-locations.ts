import { sep } from "node:path";
import type { SecretLocations } from "../sandbox/capabilities/granted-paths.js";
import { hiddenSecrets } from "./command-sandbox/hidden-secrets.js";
import { dangerousPathLists, dangerousPathReason } from "./paths/dangerous-paths.js";

/**
 * The secret locations the built-in tools know (`builtin/paths/secret-locations.ts` and the
 * dangerous-path lists), for the sandbox to judge filesystem grants by (docs/sandbox.md#capability-paths):
 * a grant that is, or lies inside, one is refused (for writes, the files that run code later too),
 * and the secrets inside a granted folder are masked, as the Bash sandbox masks them.
 */
export function grantSecretLocations(): SecretLocations {
  const lists = dangerousPathLists({});
  return {
    reason: (realPath, access) => dangerousPathReason(realPath, lists, sep, access),
    within: (realPath) =>
      hiddenSecrets({ lists, workingDirectories: [realPath], revealed: () => false, onLimit: () => undefined }).filter((secret) =>
        secret.path.startsWith(realPath.endsWith(sep) ? realPath : realPath + sep),
      ),
  };
}
