import { ScanCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isToolId } from "../validate/tool-id.js";

/** One page of one segment of a parallel key scan: its tools' ids (internal items skipped), in scan order. */
export interface KeyScanPage {
  toolIds: string[];
  /** Items the page read (`ScannedCount`): what it cost. */
  itemsRead: number;
  next?: Record<string, unknown>;
}

/**
 * One page of segment `segment` of `segments` (DynamoDB's parallel scan), only the keys: the doctor
 * reads every segment to its end at once, the sweeper's full pass a page per step (`limit` items).
 */
export async function scanKeyPage(
  db: DynamoDBDocumentClient,
  table: string,
  scan: { segment: number; segments: number; start?: Record<string, unknown>; limit?: number },
): Promise<KeyScanPage> {
  const page = await db.send(
    new ScanCommand({
      TableName: table,
      ProjectionExpression: "tool_id",
      Segment: scan.segment,
      TotalSegments: scan.segments,
      ...(scan.limit === undefined ? {} : { Limit: scan.limit }),
      ...(scan.start === undefined ? {} : { ExclusiveStartKey: scan.start }),
    }),
  );
  const toolIds = [...new Set((page.Items ?? []).map((item) => String(item.tool_id)).filter(isToolId))];
  return { toolIds, itemsRead: page.ScannedCount ?? 0, ...(page.LastEvaluatedKey === undefined ? {} : { next: page.LastEvaluatedKey }) };
}
