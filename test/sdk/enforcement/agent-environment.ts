import { newCanary, type Canary } from "./canaries.js";

/**
 * Credential variables of the agent's environment, each holding a canary. Some names the SDK's
 * lists know (`secret-variables.ts`), some it does not (issue 24: `MONGO_URI`, `SMTP_PASS`,
 * `SOME_SERVICE_KEY`): a scrubbed sandbox environment must drop both kinds.
 */
const CREDENTIAL_VARIABLES: readonly { name: string; value: (canary: string) => string }[] = [
  { name: "AWS_SECRET_ACCESS_KEY", value: (canary) => canary },
  { name: "GITHUB_TOKEN", value: (canary) => `ghp_${canary}` },
  { name: "OPENAI_API_KEY", value: (canary) => `sk-${canary}` },
  { name: "ANTHROPIC_API_KEY", value: (canary) => `sk-ant-${canary}` },
  { name: "NPM_TOKEN", value: (canary) => `npm_${canary}` },
  { name: "DATABASE_URL", value: (canary) => `postgres://app:${canary}@db.internal:5432/app` },
  { name: "STRIPE_SECRET_KEY", value: (canary) => `sk_live_${canary}` },
  { name: "SENTRY_DSN", value: (canary) => `https://${canary}@o1.ingest.sentry.invalid/1` },
  { name: "SOME_SERVICE_KEY", value: (canary) => canary },
  { name: "MONGO_URI", value: (canary) => `mongodb://app:${canary}@mongo.internal/app` },
  { name: "SMTP_PASS", value: (canary) => canary },
  { name: "SLACK_WEBHOOK_URL", value: (canary) => `https://hooks.slack.invalid/services/T0/B0/${canary}` },
];

/** Puts a canary in every credential variable of `environment` and returns the canaries. */
export function plantCredentialVariables(environment: NodeJS.ProcessEnv): Canary[] {
  return CREDENTIAL_VARIABLES.map(({ name, value }) => {
    const canary = newCanary(`env:${name}`);
    environment[name] = value(canary.value);
    return canary;
  });
}
