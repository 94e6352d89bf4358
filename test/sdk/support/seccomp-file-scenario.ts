// Run as its own process (`node --import tsx`), under whichever user a test chooses: prints, as
// one JSON line, where seccompProgramFile put the program, or the error's code and message.
import { seccompProgramFile } from "../../../sdk/src/sandbox/seccomp/index.js";

try {
  console.log(JSON.stringify({ path: seccompProgramFile() }));
} catch (error) {
  const { code, message } = error as { code?: string; message: string };
  console.log(JSON.stringify({ code, message }));
}
