/** A kubeconfig for one cluster at `server`, with `user` as the user's fields. */
export function kubeconfig(server: string, user: string): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: staging",
    `  cluster: {server: '${server}', insecure-skip-tls-verify: true}`,
    "users:",
    "- name: deployer",
    "  user:",
    `    ${user}`,
    "contexts:",
    "- name: staging",
    "  context: {cluster: staging, user: deployer}",
    "current-context: staging",
    "",
  ].join("\n");
}
