import type { RegistryConfig } from "../config.js";

/** The part of an SDK request a signer touches. */
interface SignableRequest {
  headers: Record<string, string>;
}

/** What the SDK calls instead of SigV4 (its `signer` option). */
interface PlaceholderSigner {
  sign<Request extends SignableRequest>(request: Request, options?: { signingDate?: Date }): Promise<Request>;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** A signature of the right shape that signs nothing: the emulators read the key id, never the signature. */
const PLACEHOLDER_SIGNATURE = "0".repeat(64);

/**
 * The client option that skips SigV4 for the embedded emulators: dynalite and s3rver check that a
 * request carries a well-formed `AWS4-HMAC-SHA256` header (s3rver also that its key id is known and
 * that `x-amz-content-sha256` is present) but never compute the signature, so hashing the request
 * and its payload is work nobody checks (a CPU profile of 10 concurrent uploads: 8% of the
 * server's thread). Applies only to an endpoint the local server listed in
 * `config.unsignedEndpoints` that is on loopback; any other endpoint (AWS, another emulator,
 * DynamoDB Local) is signed as ever. Presigned URLs have their own signer and stay signed.
 */
export function emulatorSigning(
  config: RegistryConfig,
  endpoint: string | undefined,
  service: "dynamodb" | "s3",
): { signer?: PlaceholderSigner } {
  if (endpoint === undefined || !config.unsignedEndpoints?.includes(endpoint) || !isLoopback(endpoint)) return {};
  const keyId = config.credentials?.accessKeyId;
  if (keyId === undefined) return {};
  return {
    signer: {
      async sign(request, options) {
        const date = (options?.signingDate ?? new Date()).toISOString().replace(/[-:]|\.\d{3}/g, "");
        const scope = `${keyId}/${date.slice(0, 8)}/${config.region}/${service}/aws4_request`;
        return {
          ...request,
          headers: {
            ...request.headers,
            "x-amz-date": date,
            "x-amz-content-sha256": "UNSIGNED-PAYLOAD",
            authorization: `AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=host;x-amz-date, Signature=${PLACEHOLDER_SIGNATURE}`,
          },
        };
      },
    },
  };
}

/** Whether `endpoint` names this machine's loopback interface (an IP literal or `localhost`). */
export function isLoopback(endpoint: string): boolean {
  let host: string;
  try {
    host = new URL(endpoint).hostname;
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
