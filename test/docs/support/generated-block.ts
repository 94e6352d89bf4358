/** A block of a documentation page that a script writes: between a start and an end marker. */
export interface GeneratedBlock {
  page: string;
  start: string;
  end: string;
  /** The whole block, markers included. */
  render(): string;
}

/** `text` (the page's content) with the block replaced by what it renders now. */
export function withGeneratedBlock(text: string, block: GeneratedBlock): string {
  const start = text.indexOf(block.start);
  const end = text.indexOf(block.end);
  if (start < 0 || end < start) throw new Error(`${block.page} has no ${block.start} … ${block.end} block`);
  return `${text.slice(0, start)}${block.render()}${text.slice(end + block.end.length)}`;
}
