import { createPublicKey, type KeyObject } from "node:crypto";
import type { Context } from "hono";
import { publicKeyId } from "@agent-tools/sdk/tool-spec";
import { isPlainObject } from "../entry/field-types.js";
import { readJsonBody } from "../http/read-json-body.js";
import { HttpProblem } from "../http-problem.js";
import { KeyTakenError, type PublisherKey } from "../storage/key-store.js";
import { ADMIN_PUBLISHER, isPublisherName } from "../trust/publisher-name.js";
import { requireWriter } from "../trust/require-writer.js";
import { auditSubject, writerOf } from "../trust/writer.js";
import type { RouteModule } from "../route-module.js";

/** Live keys one publisher may hold: enough to rotate, not a store for anything else. */
export const MAX_KEYS_PER_PUBLISHER = 10;
const MAX_PEM_LENGTH = 4096;

/**
 * Publishers' signing keys (docs/design/publisher-trust.md, "Signatures"): `PUT` registers an
 * ed25519 public key and `DELETE` revokes one (that publisher's token or the admin's), `GET` lists
 * them for anyone who verifies signatures.
 */
export const publisherKeysRoute: RouteModule = (app, deps) => {
  app.get("/publishers/:name/keys", async (c) => {
    const keys = await deps.trust.keys.list(publisherParam(c));
    return c.json(keys.map(listed), 200, { "Cache-Control": "no-cache" });
  });

  app.put("/publishers/:name/keys", requireWriter(deps, { action: "key.register" }), async (c) => {
    const publisher = ownPublisher(c);
    const key = publicKey(await readJsonBody(c));
    const keyId = publicKeyId(key);
    const existing = await deps.trust.keys.list(publisher);
    if (
      !existing.some((stored) => stored.key_id === keyId) &&
      existing.filter((stored) => stored.revoked_at === undefined).length >= MAX_KEYS_PER_PUBLISHER
    ) {
      throw new HttpProblem(
        422,
        "Too many keys",
        `${publisher} has ${MAX_KEYS_PER_PUBLISHER} live keys; revoke one ` +
          `(DELETE /publishers/${publisher}/keys/{key_id}) before adding another.`,
      );
    }
    try {
      const pem = key.export({ type: "spki", format: "pem" }).toString();
      const { key: stored, created } = await deps.trust.keys.register({
        key_id: keyId,
        publisher,
        public_key: pem,
        created_at: new Date().toISOString(),
      });
      return c.json(listed(stored), created ? 201 : 200);
    } catch (error) {
      if (!(error instanceof KeyTakenError)) throw error;
      throw new HttpProblem(
        409,
        "Key registered",
        `Key ${keyId} is registered for publisher "${error.owner}"; a key signs for one publisher only: generate another for ${publisher}.`,
      );
    }
  });

  app.delete("/publishers/:name/keys/:keyId", requireWriter(deps, { action: "key.revoke" }), async (c) => {
    const publisher = ownPublisher(c);
    const keyId = c.req.param("keyId");
    const revoked = /^sha256:[0-9a-f]{64}$/.test(keyId)
      ? await deps.trust.keys.revoke(publisher, keyId, new Date().toISOString())
      : undefined;
    if (revoked === undefined)
      throw new HttpProblem(
        404,
        "Key not found",
        `${publisher} has no key ${JSON.stringify(keyId.slice(0, 80))}; list them with GET /publishers/${publisher}/keys.`,
      );
    return c.json(listed(revoked));
  });
};

/** The `{name}` segment: a publisher name or `admin`. */
function publisherParam(c: Context): string {
  const name = c.req.param("name") ?? "";
  if (name !== ADMIN_PUBLISHER && !isPublisherName(name)) {
    throw new HttpProblem(
      400,
      "Invalid publisher",
      `${JSON.stringify(name.slice(0, 70))} is not a publisher name: 1-63 ` +
        `lowercase letters, digits or "-", starting with a letter or digit.`,
    );
  }
  return name;
}

/** The `{name}` of a key write: the writer's own publisher, unless the writer is the admin. */
function ownPublisher(c: Context): string {
  const publisher = publisherParam(c);
  auditSubject(c, { publisher });
  const writer = writerOf(c);
  if (!writer.admin && writer.publisher !== publisher) {
    throw new HttpProblem(
      403,
      "Forbidden",
      `Publisher "${writer.publisher}" cannot change the keys of "${publisher}"; only ${publisher}'s token or the registry admin can.`,
    );
  }
  return publisher;
}

function publicKey(body: unknown): KeyObject {
  const pem = isPlainObject(body) ? body.public_key : undefined;
  const extra = isPlainObject(body) ? Object.keys(body).filter((key) => key !== "public_key") : [];
  if (typeof pem !== "string" || pem.length > MAX_PEM_LENGTH || extra.length > 0) {
    throw invalidKey(`send {"public_key": "<PEM>"} and nothing else, the PEM at most ${MAX_PEM_LENGTH} characters`);
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: "pem" });
  } catch {
    throw invalidKey("public_key is not a PEM public key (-----BEGIN PUBLIC KEY-----)");
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw invalidKey(`public_key is a ${key.asymmetricKeyType ?? "unknown"} key; signatures here are ed25519`);
  return key;
}

function invalidKey(problem: string): HttpProblem {
  return new HttpProblem(
    422,
    "Invalid key",
    `${problem}. Make a key pair with: openssl genpkey -algorithm ed25519 -out ` +
      `publisher.pem && openssl pkey -in publisher.pem -pubout -out publisher.pub.pem`,
  );
}

function listed(key: PublisherKey): Omit<PublisherKey, "publisher"> {
  const { publisher: _publisher, ...rest } = key;
  return rest;
}
