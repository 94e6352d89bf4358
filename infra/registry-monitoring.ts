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
  /** A new topic with this address subscribed … */
  readonly alarmEmail?: string;
  /** … or an existing topic. Neither: the alarms only show in the console and on the dashboard. */
  readonly alarmTopicArn?: string;
}

const PERIOD = Duration.minutes(5);
/** API latency (p99) above which requests are slow enough to look into. */
const API_P99_LATENCY = Duration.seconds(3);

/**
 * What tells an operator something is wrong: per function errors, throttles and p99 duration;
 * API 5xx and p99 latency; DynamoDB throttles. Missing data is "not breaching": an idle registry
 * is healthy. A dashboard shows the same metrics side by side.
 */
export class RegistryMonitoring extends Construct {
  readonly alarms: Alarm[] = [];
  readonly topic?: ITopic;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: RegistryMonitoringProps) {
    super(scope, id);
    if (props.alarmEmail && props.alarmTopicArn) throw new Error("set alarmEmail or alarmTopicArn, not both");
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

    const tableMetric = (metricName: string) =>
      new Metric({
        namespace: "AWS/DynamoDB",
        metricName,
        dimensionsMap: { TableName: props.table.tableName },
        period: PERIOD,
        statistic: "Sum",
      });
    const throttled = new MathExpression({
      expression: "FILL(reads, 0) + FILL(writes, 0)",
      usingMetrics: { reads: tableMetric("ReadThrottleEvents"), writes: tableMetric("WriteThrottleEvents") },
      label: "DynamoDB throttle events",
      period: PERIOD,
    });
    this.alarm("TableThrottles", throttled, 1, 1, "DynamoDB throttled reads or writes of the entry table");

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
        [new GraphWidget({ title: "DynamoDB: throttle events", left: [throttled], width: 24 })],
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
