import { GetSecretValueCommand, type SecretsManagerClient } from "@aws-sdk/client-secrets-manager";

/** A Secrets Manager secret's `SecretString` (the stack's generated secrets are plain strings). */
export async function readSecretString(client: SecretsManagerClient, secretArn: string): Promise<string> {
  const result = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
  return result.SecretString ?? "";
}
