import type { Json, Response } from "../harness/client.js";
import type { FixtureName, TestServer } from "../harness/server.js";

/** Seconds since the epoch by the test server's clock, `ahead` seconds on. */
export function at(server: TestServer, ahead: number): number {
  return Math.floor(server.clock.now() / 1000) + ahead;
}

/** POST /scheduled_messages as `who`. */
export function schedule(server: TestServer, who: FixtureName, params: Record<string, Json>, headers: Record<string, string> = {}): Promise<Response> {
  return server.as(who).post("/scheduled_messages", params, { headers });
}

/** Schedules a channel message (topic "plans", an hour ahead unless `extra` says otherwise) and returns its id; fails the test on error. */
export async function scheduleToChannel(server: TestServer, who: FixtureName, channelId: number, content: string, extra: Record<string, Json> = {}): Promise<number> {
  const res = await schedule(server, who, { type: "stream", to: channelId, topic: "plans", content, scheduled_delivery_timestamp: at(server, 3600), ...extra });
  if (res.status !== 200) throw new Error(`schedule: ${JSON.stringify(res.body)}`);
  return res.body.scheduled_message_id as number;
}

/** Schedules a direct message (an hour ahead unless `extra` says otherwise) and returns its id. */
export async function scheduleDirect(server: TestServer, who: FixtureName, to: FixtureName[], content: string, extra: Record<string, Json> = {}): Promise<number> {
  const res = await schedule(server, who, { type: "direct", to: to.map((n) => server.users[n].id), content, scheduled_delivery_timestamp: at(server, 3600), ...extra });
  if (res.status !== 200) throw new Error(`schedule: ${JSON.stringify(res.body)}`);
  return res.body.scheduled_message_id as number;
}

/** GET /scheduled_messages as `who`: the list. */
export async function listOf(server: TestServer, who: FixtureName): Promise<Json[]> {
  const res = await server.as(who).get("/scheduled_messages");
  if (res.status !== 200) throw new Error(`list: ${JSON.stringify(res.body)}`);
  return res.body.scheduled_messages as Json[];
}

/** One scheduled message of `who` from the list (undefined when absent). */
export async function oneOf(server: TestServer, who: FixtureName, id: number): Promise<Json | undefined> {
  return (await listOf(server, who)).find((m) => m.scheduled_message_id === id);
}

/** The newest messages `who` can read, newest first (rendered unless `applyMarkdown` is false). */
export async function latestMessages(server: TestServer, who: FixtureName, count = 1, applyMarkdown = true): Promise<Json[]> {
  const res = await server.as(who).get("/messages", { anchor: "newest", num_before: count, num_after: 0, apply_markdown: applyMarkdown });
  if (res.status !== 200) throw new Error(`fetch: ${JSON.stringify(res.body)}`);
  return (res.body.messages as Json[]).reverse();
}

/** The newest message `who` can read, with its Markdown source as content. */
export async function latestRaw(server: TestServer, who: FixtureName): Promise<Json> {
  return (await latestMessages(server, who, 1, false))[0];
}
