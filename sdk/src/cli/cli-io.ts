import { createInterface } from "node:readline/promises";

/** Where the CLI writes and which folder relative paths start from; a real process or a test harness. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  /** Whether a person is at the terminal (stdin and stderr are TTYs): only then does the CLI ask questions or draw progress bars. */
  interactive?: boolean;
  /** Asks one question on the terminal and returns the answer line. */
  ask?(question: string): Promise<string>;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  cwd: process.cwd(),
  interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  async ask(question) {
    const terminal = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await terminal.question(question);
    } finally {
      terminal.close();
    }
  },
};
