import { isPlainObject } from "../../entry/field-types.js";

/**
 * `tool_capabilities` as declared in spec.json (e.g. `{ network: ["api.example.com:443"], env:
 * ["EXAMPLE_API_KEY"], filesystem: [{ path: "workspace", access: "read" }] }`): one line per
 * capability kind, each grant as it is written. Read defensively: entries published before the
 * field existed lack it, and the page must render whatever shape a stored entry has.
 */
export function Capabilities({ declared }: { declared: unknown }) {
  // The registry stores every kind, empty ones included (`{ network: [], env: [], filesystem: [] }`).
  const kinds = (isPlainObject(declared) ? Object.entries(declared) : []).filter(
    ([, grants]) => !(Array.isArray(grants) && grants.length === 0),
  );
  if (kinds.length === 0) {
    return <p class="muted">No capabilities declared: the tool runs with the SDK's default sandbox profile (no network, no secrets).</p>;
  }
  return (
    <dl class="facts capabilities">
      {kinds.map(([kind, grants]) => (
        <>
          <dt>{kind}</dt>
          <dd>
            {(Array.isArray(grants) ? grants : [grants]).map((grant, index) => (
              <>
                {index > 0 ? ", " : null}
                <code>{describeGrant(grant)}</code>
              </>
            ))}
          </dd>
        </>
      ))}
    </dl>
  );
}

function describeGrant(grant: unknown): string {
  if (typeof grant === "string") return grant;
  if (isPlainObject(grant))
    return Object.entries(grant)
      .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
      .join(", ");
  return JSON.stringify(grant) ?? String(grant);
}
