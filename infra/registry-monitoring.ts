import { Duration } from "aws-cdk-lib";
import type { HttpApi } from "aws-cdk-lib/aws-apigatewayv2";
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
  type IMetric,
} from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { TableV2 } from "aws-cdk-lib/aws-dynamodb";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { Topic, type ITopic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import { Construct } from "constructs";
import { functionConstructId, REGISTRY_FUNCTIONS, type RegistryFunctionName } from "./registry-functions.js";

export interface RegistryMonitoringProps {
  readonly stackName: string;
  readonly functions: Record<RegistryFunctionName, IFunction>;
  readonly api: HttpApi;
  readonly table: TableV2;
  /** The table's global secondary indexes, each alarmed for throttles of its own. */
  readonly indexNames: readonly string[];
  /** A new topic with this address subscribed … */
  readonly alarmEmail?: string;
  /** … or an existing topic. Neither: the alarms only show in the console and on the dashboard. */
  readonly alarmTopicArn?: string;
  /** A stage whose alarms must reach someone (prod): neither destination is an error at synth. */
  readonly requireDestination: boolean;
  /** The stage, named in that error. */
  readonly stage: string;
}

const PERIOD = Duration.minutes(5);
/** API latency (p99) above which requests are slow enough to look into. */
const API_P99_LATENCY = Duration.seconds(3);

/**
 * What tells an operator something is wrong: per function errors, throttles and p99 duration;
 * API 5xx and p99 latency; DynamoDB throttles of the table and of each index. Missing data is "not breaching": an idle registry
 * is healthy. A dashboard shows the same metrics side by side.
 */
export class RegistryMonitoring extends Construct {
  readonly alarms: Alarm[] = [];
  readonly topic?: ITopic;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: RegistryMonitoringProps) {
    super(scope, id);
    if (props.alarmEmail && props.alarmTopicArn) throw new Error("set alarmEmail or alarmTopicArn, not both");
    if (props.requireDestination && !props.alarmEmail && !props.alarmTopicArn) {
      throw new Error(
        `stage "${props.stage}": its alarms would notify no one. Give -c alarmEmail=ops@example.com (a new SNS topic ` +
          `mails that address; confirm the subscription) or -c alarmTopicArn=arn:aws:sns:<region>:<account>:<topic>, ` +
          `or -c requireAlarmDestination=false to deploy without (docs/deployment.md#alarms-dashboard-logs-and-metrics).`,
      );
    }
    if (props.alarmTopicArn) this.topic = Topic.fromTopicArn(this, "AlarmTopic", props.alarmTopicArn);
    if (props.alarmEmail) {
      const topic = new Topic(this, "AlarmTopic", { displayName: `${props.stackName} alarms`, enforceSSL: true });
      topic.addSubscription(new EmailSubscription(props.alarmEmail));
      this.topic = topic;
    }

    const rows: GraphWidget[][] = [];
    for (const definition of REGISTRY_FUNCTIONS) {
      const fn = props.functions[definition.name];
      const name = functionConstructId(definition.name);
      const errors = fn.metricErrors({ period: PERIOD, statistic: "Sum" });
      const throttles = fn.metricThrottles({ period: PERIOD, statistic: "Sum" });
      const p99 = fn.metricDuration({ period: PERIOD, statistic: "p99" });
      this.alarm(`${name}Errors`, errors, 1, 1, `${name}: invocations failed (crash or timeout); see its log group`);
      this.alarm(`${name}Throttles`, throttles, 1, 1, `${name}: invocations throttled (concurrency exhausted)`);
      this.alarm(
        `${name}Duration`,
        p99,
        definition.p99DurationAlarm.toMilliseconds(),
        3,
        `${name}: p99 duration over ${definition.p99DurationAlarm.toSeconds()} s for 15 minutes`,
      );
      rows.push([
        new GraphWidget({
          title: `${name}: invocations, errors, throttles`,
          left: [fn.metricInvocations({ period: PERIOD }), errors, throttles],
          width: 12,
        }),
        new GraphWidget({
          title: `${name}: duration p50 / p99 (ms)`,
          left: [fn.metricDuration({ period: PERIOD, statistic: "p50" }), p99],
          width: 12,
        }),
      ]);
    }

    const serverErrors = props.api.metricServerError({ period: PERIOD, statistic: "Sum" });
    const latency = props.api.metricLatency({ period: PERIOD, statistic: "p99" });
    this.alarm("Api5xx", serverErrors, 1, 1, "HTTP API answered 5xx");
    this.alarm(
      "ApiLatency",
      latency,
      API_P99_LATENCY.toMilliseconds(),
      3,
      `HTTP API p99 latency over ${API_P99_LATENCY.toSeconds()} s for 15 minutes`,
    );

    // The table and each global secondary index throttle apart (an index has its own partitions).
    const throttleEvents = (label: string, index?: string) => {
      const metric = (metricName: string) =>
        new Metric({
          namespace: "AWS/DynamoDB",
          metricName,
          dimensionsMap: { TableName: props.table.tableName, ...(index === undefined ? {} : { GlobalSecondaryIndexName: index }) },
          period: PERIOD,
          statistic: "Sum",
        });
      // Metric ids are unique across a graph, which draws all of them.
      const id = index === undefined ? "table" : indexConstructId(index).replace(/^./, (first) => first.toLowerCase());
      return new MathExpression({
        expression: `FILL(${id}Reads, 0) + FILL(${id}Writes, 0)`,
        usingMetrics: { [`${id}Reads`]: metric("ReadThrottleEvents"), [`${id}Writes`]: metric("WriteThrottleEvents") },
        label,
        period: PERIOD,
      });
    };
    const throttled = [throttleEvents("DynamoDB throttle events: table")];
    this.alarm("TableThrottles", throttled[0]!, 1, 1, "DynamoDB throttled reads or writes of the entry table");
    for (const index of props.indexNames) {
      const events = throttleEvents(`DynamoDB throttle events: ${index}`, index);
      throttled.push(events);
      this.alarm(
        `${indexConstructId(index)}Throttles`,
        events,
        1,
        1,
        `DynamoDB throttled reads or writes of the table's index ${index} (its own partitions; see docs/deployment.md#capacity)`,
      );
    }

    this.dashboard = new Dashboard(this, "Dashboard", {
      dashboardName: props.stackName,
      widgets: [
        [
          new GraphWidget({
            title: "API: requests, 4xx, 5xx",
            left: [props.api.metricCount({ period: PERIOD }), props.api.metricClientError({ period: PERIOD }), serverErrors],
            width: 12,
          }),
          new GraphWidget({
            title: "API: latency p50 / p99 (ms)",
            left: [props.api.metricLatency({ period: PERIOD, statistic: "p50" }), latency],
            width: 12,
          }),
        ],
        ...rows,
        [new GraphWidget({ title: "DynamoDB: throttle events", left: throttled, width: 24 })],
      ],
    });
  }

  private alarm(id: string, metric: IMetric, threshold: number, periods: number, description: string): void {
    const alarm = new Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods: periods,
      datapointsToAlarm: periods,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    if (this.topic) {
      alarm.addAlarmAction(new SnsAction(this.topic));
      alarm.addOkAction(new SnsAction(this.topic));
    }
    this.alarms.push(alarm);
  }
}

/** `latest-by-tool-id` → `LatestByToolId`: an alarm's construct id. */
function indexConstructId(index: string): string {
  return index
    .split(/[^A-Za-z0-9]+/)
    .map((word) => `${word[0]?.toUpperCase() ?? ""}${word.slice(1)}`)
    .join("");
}
