const SIMPLE_COMMANDS = new Set(["p", "P", "d", "D", "=", "l", "q", "Q", "n", "N", "g", "G", "h", "H", "x", "z", "F", "{", "}"]);
const LABEL_COMMANDS = new Set([":", "b", "t", "T"]);
const TEXT_COMMANDS = new Set(["a", "i", "c"]);

/**
 * Undefined when the sed script only prints, deletes, substitutes or moves text between buffers;
 * otherwise why not. `w`/`W` and the `w` flag write files, `e` and the `e` flag run commands,
 * `r`/`R` read other files: those need a person to look.
 */
export function sedScriptProblem(script: string): string | undefined {
  const reader = new ScriptReader(script);
  while (!reader.done()) {
    reader.skip(/[\s;]/);
    if (reader.done()) break;
    if (reader.peek() === "#") {
      reader.until("\n");
      continue;
    }
    if (!reader.address()) return `an address sed cannot parse in '${script}'`;
    reader.skip(/[\s!]/);
    const command = reader.next();
    if (command === undefined) return undefined;
    if (command === "s" || command === "y") {
      const delimiter = reader.next();
      if (delimiter === undefined || delimiter === "\\" || delimiter === "\n") return `a malformed ${command} command`;
      if (!reader.delimited(delimiter) || !reader.delimited(delimiter)) return `an unterminated ${command} command`;
      if (command === "s") {
        const flags = reader.take(/[A-Za-z0-9]/);
        if (/[ew]/.test(flags))
          return flags.includes("e") ? "the s///e flag runs the pattern space as a command" : "the s///w flag writes a file";
        if (!/^[gpiImM0-9]*$/.test(flags)) return `the substitution flags '${flags}'`;
      }
      continue;
    }
    if (command === "q" || command === "Q" || command === "l") {
      reader.take(/[0-9]/);
      continue;
    }
    if (SIMPLE_COMMANDS.has(command)) continue;
    if (LABEL_COMMANDS.has(command) || TEXT_COMMANDS.has(command)) {
      reader.until(LABEL_COMMANDS.has(command) ? ";\n" : "\n");
      continue;
    }
    if (command === "w" || command === "W") return "the w command writes a file";
    if (command === "e") return "the e command runs a shell command";
    if (command === "r" || command === "R") return "the r command reads another file";
    return `the sed command '${command}'`;
  }
  return undefined;
}

class ScriptReader {
  private index = 0;

  constructor(private readonly text: string) {}

  done(): boolean {
    return this.index >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.index];
  }

  next(): string | undefined {
    return this.text[this.index++];
  }

  skip(pattern: RegExp): void {
    while (!this.done() && pattern.test(this.text[this.index]!)) this.index += 1;
  }

  take(pattern: RegExp): string {
    const start = this.index;
    this.skip(pattern);
    return this.text.slice(start, this.index);
  }

  until(stops: string): void {
    while (!this.done() && !stops.includes(this.text[this.index]!)) {
      if (this.text[this.index] === "\\") this.index += 1;
      this.index += 1;
    }
  }

  /** Reads up to and past the next unescaped `delimiter`; false if there is none. */
  delimited(delimiter: string): boolean {
    while (!this.done()) {
      const character = this.next();
      if (character === "\\") this.index += 1;
      else if (character === delimiter) return true;
    }
    return false;
  }

  /** An optional address or address range: `3`, `$`, `/re/I`, `\%re%`, `1~2`, `addr,addr`, `addr,+N`. */
  address(): boolean {
    if (!this.singleAddress()) return false;
    if (this.peek() === ",") {
      this.index += 1;
      if (this.peek() === "+" || this.peek() === "~") {
        this.index += 1;
        return this.take(/[0-9]/).length > 0;
      }
      return this.singleAddress();
    }
    return true;
  }

  private singleAddress(): boolean {
    const character = this.peek();
    if (character === undefined) return true;
    if (/[0-9]/.test(character)) {
      this.take(/[0-9]/);
      if (this.peek() === "~") {
        this.index += 1;
        this.take(/[0-9]/);
      }
      return true;
    }
    if (character === "$") {
      this.index += 1;
      return true;
    }
    if (character === "/" || character === "\\") {
      this.index += 1;
      const delimiter = character === "/" ? "/" : this.next();
      if (delimiter === undefined || !this.delimited(delimiter)) return false;
      this.take(/[IM]/);
      return true;
    }
    return true;
  }
}
