import { expect } from "vitest";
import type { Json } from "../harness/client.js";
import type { TestServer } from "../harness/server.js";
import type { OtherSite } from "../api/image-proxy-helpers.js";
import { sendStream } from "../api/messages-fixtures.js";

/** The ids of the messages whose HTML a real client is shown. */
export interface RenderedKinds {
  /** A bare image URL of the other site: its link and a `message_inline_image` preview through /thumbnail. */
  image: number;
  /** A named link to an image: the link and its preview. */
  namedImage: number;
  /** A linkifier match (re2js engine), a plain link. */
  linkified: number;
  /** A `py2` code block, highlighted as Python 2. */
  python2: number;
  /** Notification Bot's notice in the new channel Rialto. */
  creationNotice: number;
  /** Notification Bot's announcement of Rialto in Verona, topic "new channels". */
  announcement: number;
}

/** The words of each message a reader sees, to find it on a client's screen. */
export const SHOWN = {
  image: "look at this",
  namedImage: "the other picture",
  linkified: "see ticket #4321",
  python2: "print 'hello from %s' % name",
  creationNotice: "channel created by",
  announcement: "created a new channel",
} as const;

/**
 * Sends, as othello in Verona (hamlet reads them unread), one message of each HTML that issue 21
 * changed: external image previews, a linkifier link, Python 2 highlighting, and the notices
 * Notification Bot posts when iago creates Rialto with announce=true.
 */
export async function sendRenderedKinds(server: TestServer, site: OtherSite, verona: number): Promise<RenderedKinds> {
  const ok = async (res: Promise<{ status: number; body: Json }>): Promise<Json> => {
    const done = await res;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    return done.body;
  };
  await ok(server.as("iago").post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://trac.example.com/ticket/{id}" }));
  const image = await sendStream(server, "othello", "Verona", "pictures", `${SHOWN.image} ${site.origin}/img/photo.png`);
  const namedImage = await sendStream(server, "othello", "Verona", "pictures", `[${SHOWN.namedImage}](${site.origin}/img/other.png)`);
  const linkified = await sendStream(server, "othello", "Verona", "code", `${SHOWN.linkified} please`);
  const python2 = await sendStream(server, "othello", "Verona", "code", `\`\`\`py2\nname = u"Verona"\n${SHOWN.python2}\n\`\`\``);
  await ok(server.as("desdemona").patch("/realm", { new_stream_announcements_stream_id: verona }));
  const { othello, hamlet } = server.users;
  await ok(server.as("iago").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "Rialto", description: "Merchants **only**" }]), principals: JSON.stringify([othello.id, hamlet.id]), announce: true }));
  const latest = async (narrow: Json[]): Promise<number> => {
    const body = await ok(server.as("hamlet").get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: JSON.stringify(narrow) }));
    return (body.messages as Json[])[0]?.id as number;
  };
  const creationNotice = await latest([{ operator: "channel", operand: "Rialto" }]);
  const announcement = await latest([
    { operator: "channel", operand: "Verona" },
    { operator: "topic", operand: "new channels" },
  ]);
  return { image, namedImage, linkified, python2, creationNotice, announcement };
}
