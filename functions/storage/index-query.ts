import type { QueryCommandInput } from "@aws-sdk/lib-dynamodb";

/** A Query for one partition of a secondary index (`table-schema.ts`). */
export function indexQueryInput(table: string, index: { name: string; partition: string }, value: string): QueryCommandInput {
  return {
    TableName: table,
    IndexName: index.name,
    KeyConditionExpression: "#partition = :partition",
    ExpressionAttributeNames: { "#partition": index.partition },
    ExpressionAttributeValues: { ":partition": value },
  };
}
