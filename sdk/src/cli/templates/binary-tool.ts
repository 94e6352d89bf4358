/** The files `agent-tools init <id> --runtime binary` writes: C source, its build, and a test of the contract. */
export function binaryToolFiles(toolId: string): Record<string, string> {
  return {
    "src/main.c": `/*
 * ${toolId}: the binary contract (docs/authoring.md#binary-tools).
 *   argv[1]  the request as JSON: {"tool_id", "tool_data", "mode": "input", "input"}
 *   argv[2]  the file to write the result to, as JSON
 * Exit 0 on success; on failure print a message on stderr and exit non-zero.
 * This one answers {"received": <request>}: replace it with what the tool does.
 */
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s '<request-json>' <output-file>\\n", argv[0]);
        return 2;
    }
    FILE *out = fopen(argv[2], "w");
    if (out == NULL) {
        perror(argv[2]);
        return 1;
    }
    fprintf(out, "{\\"received\\": %s}\\n", argv[1]);
    return fclose(out) == 0 ? 0 : 1;
}
`,
    "build.sh": `#!/bin/sh
# Builds code/${toolId}, the one executable the tool ships (code/ must hold exactly one file).
set -eu
cd "$(dirname "$0")"
mkdir -p code
\${CC:-cc} -O2 -o code/${toolId} src/main.c
`,
    "tests/test.sh": `#!/bin/sh
# Runs the built executable as the SDK does and checks its output file.
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
./code/${toolId} '{"tool_id":"${toolId}","tool_data":{},"mode":"input","input":{"value":41}}' "$out"
grep -q '"value":41' "$out"
echo "ok: code/${toolId} wrote $(cat "$out")"
`,
  };
}
