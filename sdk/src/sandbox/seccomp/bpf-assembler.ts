import { endianness } from "node:os";

/**
 * A tiny assembler for the classic BPF the kernel's seccomp runs: each instruction is a
 * `struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }` in host byte order, 8 bytes, and a
 * program is their concatenation, which is what `bwrap --seccomp FD` reads (docs/sandbox.md#system-call-filter).
 * Jumps go forward only and at most 255 instructions; labels spare the caller the counting.
 */

/** The kernel's limit on one program's length (`BPF_MAXINSNS`). */
export const BPF_MAX_INSTRUCTIONS = 4096;
/** `sizeof(struct sock_filter)`. */
export const BPF_INSTRUCTION_BYTES = 8;

/** The opcodes the filter needs (`BPF_LD|BPF_W|BPF_ABS`, `BPF_ALU|BPF_AND|BPF_K`, `BPF_JMP|…|BPF_K`, `BPF_RET|BPF_K`). */
export const BPF_OPCODES = {
  load: 0x20,
  and: 0x54,
  eq: 0x15,
  ge: 0x35,
  anyBit: 0x45,
  return: 0x06,
} as const;

export type Instruction =
  /** A = the 32-bit word at `offset` in `struct seccomp_data`. */
  | { op: "load"; offset: number }
  /** A = A & value. */
  | { op: "and"; value: number }
  /** Compare A with `value` (`eq`, unsigned `ge`, or `anyBit`: A & value ≠ 0) and jump to a label. */
  | { op: "jump"; test: "eq" | "ge" | "anyBit"; value: number; ifTrue: string; ifFalse: string }
  /** End the program with this seccomp verdict. */
  | { op: "return"; value: number }
  /** Names the position of the next instruction; emits nothing. */
  | { op: "label"; name: string };

/**
 * The raw `struct sock_filter[]` of `code`. Throws when a label is missing or defined twice, a
 * jump would go backwards or further than 255 instructions, a constant is not a u32, or the
 * program exceeds the kernel's 4096 instructions: all mistakes of the program's author.
 */
export function assemble(code: readonly Instruction[]): Buffer {
  const positions = labelPositions(code);
  const instructions = code.filter((instruction) => instruction.op !== "label");
  if (instructions.length > BPF_MAX_INSTRUCTIONS) {
    throw new RangeError(`a BPF program holds at most ${BPF_MAX_INSTRUCTIONS} instructions, this one ${instructions.length}`);
  }
  const program = Buffer.alloc(instructions.length * BPF_INSTRUCTION_BYTES);
  const little = endianness() === "LE";
  instructions.forEach((instruction, index) => {
    const [opcode, jt, jf, k] = encode(instruction, index, positions);
    const at = index * BPF_INSTRUCTION_BYTES;
    if (little) program.writeUInt16LE(opcode, at);
    else program.writeUInt16BE(opcode, at);
    program.writeUInt8(jt, at + 2);
    program.writeUInt8(jf, at + 3);
    if (little) program.writeUInt32LE(k, at + 4);
    else program.writeUInt32BE(k, at + 4);
  });
  return program;
}

/** Each label's instruction index. */
function labelPositions(code: readonly Instruction[]): Map<string, number> {
  const positions = new Map<string, number>();
  let index = 0;
  for (const instruction of code) {
    if (instruction.op !== "label") index++;
    else if (positions.has(instruction.name)) throw new Error(`BPF label "${instruction.name}" is defined twice`);
    else positions.set(instruction.name, index);
  }
  return positions;
}

function encode(
  instruction: Exclude<Instruction, { op: "label" }>,
  index: number,
  positions: Map<string, number>,
): [number, number, number, number] {
  if (instruction.op !== "jump")
    return [BPF_OPCODES[instruction.op], 0, 0, u32("offset" in instruction ? instruction.offset : instruction.value)];
  const { test, value, ifTrue, ifFalse } = instruction;
  return [BPF_OPCODES[test], distance(ifTrue, index, positions), distance(ifFalse, index, positions), u32(value)];
}

/** A jump's distance to a label: BPF counts from the instruction after the jump. */
function distance(label: string, index: number, positions: Map<string, number>): number {
  const position = positions.get(label);
  if (position === undefined) throw new Error(`BPF label "${label}" is not defined`);
  const forward = position - index - 1;
  if (forward < 0 || forward > 255) throw new RangeError(`BPF jump from ${index} to "${label}" (${position}) is not 0..255 forward`);
  return forward;
}

function u32(value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) throw new RangeError(`BPF constant ${value} is not a u32`);
  return value;
}
