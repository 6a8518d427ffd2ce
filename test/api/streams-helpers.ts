import type { Json, Response } from "../harness/client.js";
import type { TestServer } from "../harness/server.js";

/** Creates channels as `who` (POST /users/me/subscriptions) and returns their ids by name. */
export async function createStreams(
  server: TestServer,
  who: Parameters<TestServer["as"]>[0],
  names: string[],
  extra: Record<string, Json> = {},
): Promise<Record<string, number>> {
  const res = await server.as(who).post("/users/me/subscriptions", { subscriptions: names.map((name) => ({ name })), ...extra });
  if (res.status !== 200) throw new Error(`creating ${names.join(", ")}: ${JSON.stringify(res.body)}`);
  const ids: Record<string, number> = {};
  for (const name of names) {
    const found = await server.as("desdemona").get("/get_stream_id", { stream: name });
    if (found.status === 200) ids[name] = found.body.stream_id;
    else ids[name] = await idFromDb(server, name);
  }
  return ids;
}

async function idFromDb(server: TestServer, name: string): Promise<number> {
  const row = await server.app.ctx.db.selectFrom("stream").select("id").where("name", "=", name).executeTakeFirstOrThrow();
  return row.id;
}

/** Sets realm props directly (no realm-settings endpoint is part of this area). */
export async function setRealmProps(server: TestServer, props: Record<string, Json>): Promise<void> {
  const realmId = server.users.desdemona.realm_id;
  const row = await server.app.ctx.db.selectFrom("realm").select("props").where("id", "=", realmId).executeTakeFirstOrThrow();
  const merged = { ...JSON.parse(row.props), ...props };
  await server.app.ctx.store.write((tx) => tx.updateTable("realm").set({ props: JSON.stringify(merged) }).where("id", "=", realmId).execute());
  server.app.ctx.realms.forget(realmId);
}

/** GET of a response carrying channel objects (validated by the client like any other). */
export function getChannels(server: TestServer, who: Parameters<TestServer["as"]>[0], path: string, params: Record<string, Json> = {}): Promise<Response> {
  return server.as(who).get(path, params);
}
