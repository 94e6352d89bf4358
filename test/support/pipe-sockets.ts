import type { Socket } from "node:net";

/** Forwards bytes both ways between two sockets; either one closing or failing closes the other. */
export function pipeSockets(a: Socket, b: Socket): void {
  a.pipe(b).pipe(a);
  a.once("error", () => b.destroy());
  b.once("error", () => a.destroy());
  a.once("close", () => b.destroy());
  b.once("close", () => a.destroy());
}
