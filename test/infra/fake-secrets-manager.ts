/**
 * A loopback stand-in for AWS Secrets Manager's GetSecretValue (JSON 1.1 protocol), enough for
 * the real `@aws-sdk/client-secrets-manager` to read a secret. Counts reads; `fail` makes it 500.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeSecretsManager {
  endpoint: string;
  secrets: Map<string, string>;
  reads: number;
  fail: boolean;
  close(): Promise<void>;
}

export async function startFakeSecretsManager(secrets: Record<string, string> = {}): Promise<FakeSecretsManager> {
  const state = { secrets: new Map(Object.entries(secrets)), reads: 0, fail: false };
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const reply = (status: number, payload: object) => {
        response.writeHead(status, { "content-type": "application/x-amz-json-1.1" });
        response.end(JSON.stringify(payload));
      };
      if (request.headers["x-amz-target"] !== "secretsmanager.GetSecretValue") return reply(400, { __type: "UnknownOperationException" });
      state.reads += 1;
      if (state.fail) return reply(500, { __type: "InternalServiceError", message: "fake outage" });
      const { SecretId } = JSON.parse(body) as { SecretId: string };
      const value = state.secrets.get(SecretId);
      if (value === undefined)
        return reply(400, { __type: "ResourceNotFoundException", message: "Secrets Manager can't find the specified secret." });
      reply(200, { ARN: SecretId, Name: SecretId.split(":").pop(), SecretString: value, VersionId: "v1" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(state, {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
