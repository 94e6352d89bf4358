/** Where the CLI writes and which folder relative paths start from; a real process or a test harness. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  cwd: process.cwd(),
};
