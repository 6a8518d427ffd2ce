import { doCreateStream } from "../../src/actions/streams.js";
import { bulkAddSubscriptions } from "../../src/actions/subscriptions.js";
import { write } from "../../src/context.js";
import { activeStreamByName, type StreamRow } from "../../src/db/queries/streams.js";
import { usersOfRealm } from "../../src/db/queries/users.js";
import type { Json, Response } from "../harness/client.js";
import type { TestServer } from "../harness/server.js";

/**
 * Creates channels as `who` and subscribes `principals` (ids; `who` when none), as Zulip's tests'
 * make_stream and subscribe do: through the actions, without Notification Bot's creation notices
 * (test/api/channel-creation-notices.test.ts covers those, through POST /users/me/subscriptions).
 * Takes that endpoint's parameters (and `description`, for every channel); returns their ids by name.
 */
export async function createStreams(
  server: TestServer,
  who: Parameters<TestServer["as"]>[0],
  names: string[],
  extra: Record<string, Json> = {},
): Promise<Record<string, number>> {
  const ctx = server.app.ctx;
  const actor = typeof who === "string" ? server.users[who] : who;
  const principals = (extra.principals ?? [actor.id]) as number[];
  const spec = {
    description: typeof extra.description === "string" ? extra.description : "",
    inviteOnly: extra.invite_only === true,
    isWebPublic: extra.is_web_public === true,
    historyPublicToSubscribers: typeof extra.history_public_to_subscribers === "boolean" ? extra.history_public_to_subscribers : null,
    streamPostPolicy: typeof extra.stream_post_policy === "number" ? extra.stream_post_policy : 1,
    messageRetentionDays: null,
    canRemoveSubscribersGroup: null,
  };
  const ids: Record<string, number> = {};
  await write(ctx, async (tx, outbox) => {
    const subscribers = (await usersOfRealm(tx, actor.realm_id)).filter((u) => principals.includes(u.id));
    const streams: StreamRow[] = [];
    for (const name of names) {
      const stream = (await activeStreamByName(tx, actor.realm_id, name)) ?? (await doCreateStream(ctx, tx, outbox, actor, { ...spec, name }));
      streams.push(stream);
      ids[name] = stream.id;
    }
    await bulkAddSubscriptions(tx, outbox, subscribers, streams);
  });
  return ids;
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
