import { UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isToolId } from "../validate/tool-id.js";
import { conditionalWrite } from "./query-all.js";

/** Storage keys of tools must be tool ids: internal items (`#…`) are never reachable through them. */
export function assertToolId(toolId: string): void {
  if (!isToolId(toolId)) throw new RangeError(`not a tool id: ${JSON.stringify(toolId.slice(0, 140))}`);
}

/** Sets one attribute of a version item if `condition` holds (it may name `#attribute` and `:value`); false when it does not. */
export function setIf(
  db: DynamoDBDocumentClient,
  table: string,
  key: { toolId: string; version: string },
  attribute: string,
  value: string,
  condition: string,
): Promise<boolean> {
  assertToolId(key.toolId);
  return conditionalWrite(
    db.send(
      new UpdateCommand({
        TableName: table,
        Key: { tool_id: key.toolId, version: key.version },
        UpdateExpression: "SET #attribute = :value",
        ConditionExpression: condition,
        ExpressionAttributeNames: { "#attribute": attribute },
        ExpressionAttributeValues: { ":value": value },
      }),
    ),
  );
}
