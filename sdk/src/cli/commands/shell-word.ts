/** A word a POSIX shell reads back unchanged, for commands the CLI tells the user to run: as is when plainly safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
