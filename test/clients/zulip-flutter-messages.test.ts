/**
 * zulip-flutter (the mobile app) reading messages from Rookery: its getMessages call, each
 * message's JSON as its Message decoder requires it (lib/api/model/model.dart), and each
 * message's HTML through its content parser's rules (flutter-content.ts): every message of the
 * organisation must parse with no Unimplemented node, and the HTML issue 21 changed must give the
 * nodes the app draws (image previews, a linkifier link, a highlighted Python 2 block, Notification
 * Bot's notices). Then the preview's image, fetched as the app fetches it (its src resolved
 * against the realm, the API key in a Basic header, as for any URL of the realm's origin).
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { startOtherSite, type OtherSite } from "../api/image-proxy-helpers.js";
import { parseContent, show, unparsed } from "./flutter-content.js";
import { sendRenderedKinds, type RenderedKinds } from "./issue-messages.js";
import { populate } from "./populate.js";
import { bool, int, list, obj, oneOf, problems, str } from "./shape.js";

/** The app's fetch of the newest messages (lib/model/message_list.dart, fetchInitial). */
const FLUTTER_GET_MESSAGES = { narrow: "[]", anchor: "newest", num_before: "100", num_after: "0", allow_empty_topic_name: "true" };

/** Keys StreamMessage and DmMessage require (model.g.dart), with the JSON types they cast to. */
const MESSAGE = obj({
  type: oneOf(["stream", "private"]),
  client: str,
  content: str,
  content_type: oneOf(["text/html"]),
  id: int,
  is_me_message: bool,
  reactions: list(obj({ emoji_name: str, emoji_code: str, reaction_type: str, user_id: int })),
  sender_email: str,
  sender_full_name: str,
  sender_id: int,
  sender_realm_str: str,
  timestamp: int,
  flags: list(str),
  submessages: list(obj({})),
});

let server: TestServer;
let site: OtherSite;
let ids: RenderedKinds;
let messages: Json[];
beforeAll(async () => {
  site = await startOtherSite();
  server = await startServer({ imageProxy: { allowPrivate: true, maxMib: 5, timeoutS: 5, cacheMib: 50 } });
  await populate(server);
  const verona = (await server.as("hamlet").get("/get_stream_id", { stream: "Verona" })).body.stream_id as number;
  ids = await sendRenderedKinds(server, site, verona);
  // allow_empty_topic_name is newer than level 277: Zulip's document for it is not this one's.
  const res = await server.as("hamlet").get("/messages", FLUTTER_GET_MESSAGES, { validate: false });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  messages = res.body.messages;
}, 60_000);
afterAll(async () => {
  await server.stop();
  await site.close();
});

const contentOf = (id: number): string => String(messages.find((m) => m.id === id)?.content);

describe("zulip-flutter's message list against Rookery", () => {
  it("decodes all ten messages: every key its Message decoder requires", () => {
    expect(messages.length).toBe(10);
    expect(messages.flatMap((m, i) => problems(m, MESSAGE, `$.messages[${i}]`))).toEqual([]);
  });

  it("parses every message's HTML with no node left unimplemented", () => {
    const failures = messages.map((m) => ({ id: m.id, unparsed: unparsed(parseContent(m.content)) })).filter((f) => f.unparsed.length > 0);
    expect(failures).toEqual([]);
  });

  it("reads an image link as a paragraph and an image preview of the proxied thumbnail, the original as its link", () => {
    const photo = `${site.origin}/img/photo.png`;
    const src = `/thumbnail?url=${encodeURIComponent(photo)}&size=thumbnail`;
    expect(show(parseContent(contentOf(ids.image)))).toBe(`ParagraphNode[TextNode("look at this "), LinkNode(${photo})[TextNode("${photo}")]], ImagePreviewNodeList[ImagePreviewNode(Other ${src} original=${photo})]`);
    const other = `${site.origin}/img/other.png`;
    const otherSrc = `/thumbnail?url=${encodeURIComponent(other)}&size=thumbnail`;
    expect(show(parseContent(contentOf(ids.namedImage)))).toBe(`ParagraphNode[LinkNode(${other})[TextNode("the other picture")]], ImagePreviewNodeList[ImagePreviewNode(Other ${otherSrc} original=${other})]`);
  });

  it("reads the linkifier's link, the Python 2 block's highlighted spans and Notification Bot's notices", () => {
    expect(show(parseContent(contentOf(ids.linkified)))).toBe('ParagraphNode[TextNode("see ticket "), LinkNode(https://trac.example.com/ticket/4321)[TextNode("#4321")], TextNode(" please")]');
    expect(show(parseContent(contentOf(ids.python2)))).toBe(
      'CodeBlockNode[CodeBlockSpanNode(n "name"), CodeBlockSpanNode(text " "), CodeBlockSpanNode(o "="), CodeBlockSpanNode(text " "), CodeBlockSpanNode(sa "u"), CodeBlockSpanNode(s2 "\\"Verona\\""), CodeBlockSpanNode(text "\\n"), ' +
        'CodeBlockSpanNode(k "print"), CodeBlockSpanNode(text " "), CodeBlockSpanNode(s1 "\'hello from "), CodeBlockSpanNode(si "%s"), CodeBlockSpanNode(s1 "\'"), CodeBlockSpanNode(text " "), CodeBlockSpanNode(o "%"), CodeBlockSpanNode(text " "), CodeBlockSpanNode(n "name")]',
    );
    const iago = server.users.iago.id;
    const rialto = /data-stream-id="(\d+)"/.exec(contentOf(ids.announcement))?.[1];
    expect(show(parseContent(contentOf(ids.announcement)))).toBe(
      `ParagraphNode[UserMentionNode(silent ${iago})[TextNode("Iago")], TextNode(" created a new channel "), LinkNode(/#narrow/channel/${rialto}-Rialto)[TextNode("#Rialto")], TextNode(".")]`,
    );
    expect(show(parseContent(contentOf(ids.creationNotice)))).toBe(
      `ParagraphNode[StrongNode[TextNode("Public")], TextNode(" channel created by "), UserMentionNode(silent ${iago})[TextNode("Iago")], TextNode(". "), StrongNode[TextNode("Description:")]], ` +
        'QuotationNode[ParagraphNode[TextNode("Merchants "), StrongNode[TextNode("only")]]]',
    );
  });

  it("loads the preview's thumbnail as the app does: the src on the realm's origin, with its Basic header", async () => {
    const src = /<img[^>]* src="([^"]+)"/.exec(contentOf(ids.image))?.[1]?.replace(/&amp;/g, "&") ?? "";
    const { hamlet } = server.users;
    const res = await fetch(new URL(src, server.url), {
      headers: { authorization: `Basic ${Buffer.from(`${hamlet.delivery_email}:${hamlet.api_key}`).toString("base64")}`, "user-agent": "ZulipFlutter/30.0.274 (Android 14)" },
    });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "image/webp"]);
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ format: "webp", width: 840, height: 560 });
  });
});

describe("the transcription of the app's content parser", () => {
  it("flags what the app leaves unimplemented: an unknown Pygments class, a highlighted line, a preview link with a class, text after a preview in a list item", () => {
    const flagged = (html: string): string[] => unparsed(parseContent(html)).map((n) => `${n.kind}(${n.detail})`);
    expect(flagged('<div class="codehilite"><pre><span></span><code><span class="zz">x</span></code></pre></div>')).toEqual(['UnimplementedBlockContentNode(<div class="codehilite">)']);
    expect(flagged('<div class="codehilite"><pre><code><span class="hll">x</span></code></pre></div>')).toEqual(['UnimplementedBlockContentNode(<div class="codehilite">)']);
    expect(flagged('<div class="message_inline_image"><a class="x" href="/a"><img src="/b"></a></div>')).toEqual(['UnimplementedBlockContentNode(<div class="message_inline_image">)']);
    expect(flagged('<ul><li><div class="message_inline_image"><a href="/a"><img src="/b"></a></div>text</li></ul>')).toEqual(["UnimplementedBlockContentNode(#text)"]);
    expect(flagged('<p><span class="user-mention extra" data-user-id="1">x</span></p>')).toEqual(['UnimplementedInlineContentNode(<span class="user-mention extra">)']);
  });
});
