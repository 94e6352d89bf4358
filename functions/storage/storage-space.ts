/**
 * Room for writes where storage is a local disk (`npm start`: functions/local/disk-space.ts). On
 * AWS there is none to check (S3 and DynamoDB do not fill up), so deps leave it out.
 */
export interface StorageSpace {
  /**
   * Resolves when a write that sends `sentBytes` fits (a bundle stores about twice its size: the
   * archive, and the entry in the table), with room to spare; otherwise throws a 507 HttpProblem
   * that says how much is free and what to free. Called before the write stores anything.
   */
  assertRoomFor(sentBytes: number): Promise<void>;
}
