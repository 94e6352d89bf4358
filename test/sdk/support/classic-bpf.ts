/**
 * Runs a seccomp program the way the kernel does, for the instructions a seccomp filter may use
 * that ours emits (load absolute word, and, jeq/jge/jset, ret), over one `struct seccomp_data`. The
 * kernel test runs x86_64 programs for real; this checks what no kernel here can run (aarch64).
 */
export interface SeccompCall {
  nr: number;
  arch: number;
  /** Up to six 64-bit arguments. */
  args?: readonly bigint[];
}

export function runSeccompProgram(program: Buffer, call: SeccompCall): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, 0);
  data.writeUInt32LE(call.arch, 4);
  for (const [index, arg] of (call.args ?? []).entries()) data.writeBigUInt64LE(BigInt.asUintN(64, arg), 16 + 8 * index);
  let a = 0;
  for (let pc = 0; pc * 8 < program.length; pc++) {
    const at = pc * 8;
    const [code, jt, jf, k] = [program.readUInt16LE(at), program[at + 2]!, program[at + 3]!, program.readUInt32LE(at + 4)];
    switch (code) {
      case 0x20:
        if (k % 4 !== 0 || k > 60) throw new Error(`load from offset ${k} at ${pc}: the kernel refuses it`);
        a = data.readUInt32LE(k);
        break;
      case 0x54:
        a = (a & k) >>> 0;
        break;
      case 0x15:
        pc += a === k ? jt : jf;
        break;
      case 0x35:
        pc += a >= k ? jt : jf;
        break;
      case 0x45:
        pc += (a & k) !== 0 ? jt : jf;
        break;
      case 0x06:
        return k;
      default:
        throw new Error(`opcode 0x${code.toString(16)} at ${pc} is not one this interpreter knows`);
    }
  }
  throw new Error("the program ran off its end without returning");
}
