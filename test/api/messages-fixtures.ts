import type { Json } from "../harness/client.js";
import type { FixtureName, TestServer } from "../harness/server.js";
import { createStreams } from "./streams-helpers.js";

/** Channels every message test file starts with. */
export interface Channels {
  verona: number;
  denmark: number;
  secret: number;
  vault: number;
}

/**
 * Creates the message tests' channels: Verona (public; desdemona, iago, hamlet, othello,
 * cordelia, polonius), Denmark (public; iago, hamlet), secret (private, shared history; iago,
 * hamlet), vault (private, protected history; iago, hamlet, cordelia).
 */
export async function createChannels(server: TestServer): Promise<Channels> {
  const all: FixtureName[] = ["desdemona", "iago", "hamlet", "othello", "cordelia", "polonius"];
  const ids = (names: FixtureName[]) => names.map((n) => server.users[n].id);
  const verona = await createStreams(server, "iago", ["Verona"], { principals: ids(all) });
  const denmark = await createStreams(server, "iago", ["Denmark"], { principals: ids(["iago", "hamlet"]) });
  const secret = await createStreams(server, "iago", ["secret"], { principals: ids(["iago", "hamlet"]), invite_only: true, history_public_to_subscribers: true });
  const vault = await createStreams(server, "iago", ["vault"], {
    principals: ids(["iago", "hamlet", "cordelia"]),
    invite_only: true,
    history_public_to_subscribers: false,
  });
  return { verona: verona.Verona ?? 0, denmark: denmark.Denmark ?? 0, secret: secret.secret ?? 0, vault: vault.vault ?? 0 };
}

/** Sends a channel message as `who` and returns its id (fails the test on error). */
export async function sendStream(server: TestServer, who: FixtureName, stream: string, topic: string, content: string, extra: Record<string, Json> = {}): Promise<number> {
  const res = await server.as(who).post("/messages", { type: "stream", to: stream, topic, content, ...extra });
  if (res.status !== 200) throw new Error(`send to ${stream}: ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/** Sends a direct message as `who` to fixture users and returns its id. */
export async function sendDirect(server: TestServer, who: FixtureName, to: FixtureName[], content: string, extra: Record<string, Json> = {}): Promise<number> {
  const res = await server.as(who).post("/messages", { type: "direct", to: to.map((n) => server.users[n].id), content, ...extra });
  if (res.status !== 200) throw new Error(`direct message: ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/** GET /messages as `who` with a narrow, returning the ids found (oldest first). */
export async function idsIn(server: TestServer, who: FixtureName, narrow: Json[], extra: Record<string, Json> = {}): Promise<number[]> {
  const res = await server.as(who).get("/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow, ...extra });
  if (res.status !== 200) throw new Error(`fetch: ${JSON.stringify(res.body)}`);
  return (res.body.messages as { id: number }[]).map((m) => m.id);
}

/** The narrow of one channel's topic. */
export function topicIn(stream: string, topic: string): Json[] {
  return [
    { operator: "channel", operand: stream },
    { operator: "topic", operand: topic },
  ];
}

/** A silent mention of a fixture user, as Notification Bot writes them. */
export function silentMention(server: TestServer, who: FixtureName): string {
  return `@_**${server.users[who].full_name}|${server.users[who].id}**`;
}
