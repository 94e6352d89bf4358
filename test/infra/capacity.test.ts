// The configuration docs/deployment.md#capacity gives for 10,000 reads/s and 100 publishes/s,
// synthesised from the guide's own command line: it builds, and its template carries the limits
// the page's arithmetic needs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlocks } from "../docs/support/markdown-pages.js";
import { functionLogicalId, synthStack, type SynthesizedStack, type TemplateResources } from "./synth-stack.js";

const READS_PER_SECOND = 10_000;
const PUBLISHES_PER_SECOND = 100;
/** What the page counts a publish as holding an upload instance. */
const PUBLISH_SECONDS = 0.5;

/** The `-c key=value` pairs of the guide's capacity command (the block that deploys with throttleRateLimit). */
function capacityContext(): Record<string, string> {
  const block = codeBlocks("docs/deployment.md").find(
    (code) => code.text.includes("cdk deploy") && code.text.includes("throttleRateLimit"),
  );
  if (block === undefined) throw new Error("docs/deployment.md has no capacity command (npx cdk deploy … -c throttleRateLimit=…)");
  return Object.fromEntries([...block.text.matchAll(/-c (\w+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
}

let synth: SynthesizedStack;
let resources: TemplateResources;
const context = capacityContext();

beforeAll(() => {
  synth = synthStack(context);
  resources = synth.template.toJSON().Resources as TemplateResources;
});
afterAll(() => synth?.cleanup());

describe("the capacity configuration (1M tools, 10k reads/s, 100 publishes/s)", () => {
  it("is a prod stack with somewhere for its alarms to go", () => {
    expect(context.stage).toBe("prod");
    expect(context.alarmEmail ?? context.alarmTopicArn).toBeDefined();
    expect(Object.values(resources).filter((resource) => resource.Type === "AWS::SNS::Subscription")).toHaveLength(1);
  });

  it("lets the public read routes take 10,000 requests a second, and search its share", () => {
    const stage = Object.values(resources).find((resource) => resource.Type === "AWS::ApiGatewayV2::Stage")!;
    expect(stage.Properties.DefaultRouteSettings.ThrottlingRateLimit).toBeGreaterThanOrEqual(READS_PER_SECOND);
    const search = stage.Properties.RouteSettings["GET /tools/search"] as { ThrottlingRateLimit: number };
    expect(search.ThrottlingRateLimit).toBe(Number(context.searchRateLimit));
  });

  it("gives upload the concurrency and route limits 100 publishes a second need", () => {
    const upload = resources[functionLogicalId(resources, "Upload")]!;
    expect(upload.Properties.ReservedConcurrentExecutions).toBeGreaterThanOrEqual(PUBLISHES_PER_SECOND * PUBLISH_SECONDS);
    const stage = Object.values(resources).find((resource) => resource.Type === "AWS::ApiGatewayV2::Stage")!;
    const uploadRoute = stage.Properties.RouteSettings["POST /tools/upload"] as { ThrottlingRateLimit: number };
    expect(uploadRoute.ThrottlingRateLimit).toBeGreaterThanOrEqual(PUBLISHES_PER_SECOND);
  });
});
