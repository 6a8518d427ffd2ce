/**
 * The official Python client (python-zulip-api, unpatched) against a real Rookery, through
 * python-zulip-api.py: register (with read receipts on in a new organisation, issue 21),
 * get_messages with the HTML issue 21 changed, get_raw_message, the read receipts that Zulip's
 * get_read_receipts example reads, a sent message coming back through get_events, and a custom
 * emoji and a file uploaded as the client sends files (a part without a Content-Type, issue 21), and
 * Zulip's get_realm_exports and export_realm examples (issue 25). Needs the
 * python-zulip-api checkout (see real-clients.ts) and a Python 3 with requests and distro.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { startOtherSite, type OtherSite } from "../api/image-proxy-helpers.js";
import { sendRenderedKinds, type RenderedKinds } from "./issue-messages.js";
import { download } from "../api/uploads-helpers.js";
import { populate } from "./populate.js";
import { checkout, clientsDir, pythonWith } from "./real-clients.js";

const api = checkout("python-zulip-api");
const pythonPath = api ? [path.join(api, "zulip")] : [];
const python = api ? pythonWith(["requests", "distro", "zulip"], pythonPath) : undefined;
if (python === undefined) console.log(`python-zulip-api run skipped: needs python-zulip-api in ${clientsDir} and a Python 3 with requests and distro`);

let server: TestServer;
let site: OtherSite;
let ids: RenderedKinds;
let got: Json;

/** Zulip 9.0's preview of an external image, as in test/api/messages-image-previews.test.ts. */
function preview(url: string, title?: string): string {
  const encoded = encodeURIComponent(url);
  const titled = title === undefined ? "" : ` title="${title}"`;
  return `<div class="message_inline_image"><a href="${url}"${titled}><img data-src-fullsize="/thumbnail?url=${encoded}&amp;size=full" src="/thumbnail?url=${encoded}&amp;size=thumbnail"></a></div>`;
}

describe.skipIf(python === undefined)("python-zulip-api against Rookery", () => {
  beforeAll(async () => {
    site = await startOtherSite();
    server = await startServer({ imageProxy: { allowPrivate: true, maxMib: 5, timeoutS: 5, cacheMib: 50 } });
    await populate(server);
    const verona = (await server.as("hamlet").get("/get_stream_id", { stream: "Verona" })).body.stream_id as number;
    ids = await sendRenderedKinds(server, site, verona);
    const read = await server.as("cordelia").post("/messages/flags", { messages: JSON.stringify([ids.image]), op: "add", flag: "read" });
    expect(read.status).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-pza-"));
    const { hamlet, iago } = server.users;
    const zuliprc = path.join(dir, "zuliprc");
    fs.writeFileSync(zuliprc, `[api]\nemail=${hamlet.delivery_email}\nkey=${hamlet.api_key}\nsite=${server.url}\n`, { mode: 0o600 });
    const adminrc = path.join(dir, "adminrc");
    fs.writeFileSync(adminrc, `[api]\nemail=${iago.delivery_email}\nkey=${iago.api_key}\nsite=${server.url}\n`, { mode: 0o600 });
    const script = path.join(import.meta.dirname, "python-zulip-api.py");
    const jpeg = path.join(dir, "sun.jpg");
    fs.writeFileSync(jpeg, await sharp({ create: { width: 64, height: 48, channels: 3, background: "#e0a020" } }).jpeg().toBuffer());
    // Run asynchronously: the server answering the client lives in this process.
    got = await new Promise<Json>((resolve, reject) => {
      const child = spawn(python ?? "python3", [script, zuliprc, JSON.stringify(ids), jpeg, adminrc], { env: { ...process.env, PYTHONPATH: pythonPath.join(":") } });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (code) => (code === 0 ? resolve(JSON.parse(stdout) as Json) : reject(new Error(`exit ${code}: ${stderr}`))));
    });
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await site?.close();
  });

  it("registers: a queue, level 277, read receipts and image previews on in the new organisation", () => {
    expect(got.register).toEqual({ result: "success", has_queue: true, realm_enable_read_receipts: true, realm_inline_image_preview: true, zulip_feature_level: 277 });
  });

  it("get_messages gives every message, issue 21's HTML exactly as Zulip 9.0 writes it", () => {
    const photo = `${site.origin}/img/photo.png`;
    const other = `${site.origin}/img/other.png`;
    const rialto = got.get_messages.content.announcement.match(/data-stream-id="(\d+)"/)?.[1];
    const iago = `<span class="user-mention silent" data-user-id="${server.users.iago.id}">Iago</span>`;
    expect(got.get_messages).toEqual({
      result: "success",
      count: 10,
      found_newest: true,
      content: {
        image: `<p>look at this <a href="${photo}">${photo}</a></p>\n${preview(photo)}`,
        namedImage: `<p><a href="${other}">the other picture</a></p>\n${preview(other, "the other picture")}`,
        linkified: '<p>see ticket <a href="https://trac.example.com/ticket/4321">#4321</a> please</p>',
        python2:
          '<div class="codehilite" data-code-language="Python 2.x"><pre><span></span><code><span class="n">name</span> <span class="o">=</span> <span class="sa">u</span><span class="s2">&quot;Verona&quot;</span>\n' +
          '<span class="k">print</span> <span class="s1">&#39;hello from </span><span class="si">%s</span><span class="s1">&#39;</span> <span class="o">%</span> <span class="n">name</span>\n</code></pre></div>',
        announcement: `<p>${iago} created a new channel <a class="stream" data-stream-id="${rialto}" href="/#narrow/channel/${rialto}-Rialto">#Rialto</a>.</p>`,
        creationNotice: `<p><strong>Public</strong> channel created by ${iago}. <strong>Description:</strong></p>\n<blockquote>\n<p>Merchants <strong>only</strong></p>\n</blockquote>`,
      },
      senders: { image: "Othello, the Moor of Venice", namedImage: "Othello, the Moor of Venice", linkified: "Othello, the Moor of Venice", python2: "Othello, the Moor of Venice", announcement: "Notification Bot", creationNotice: "Notification Bot" },
    });
  });

  it("get_raw_message gives the Markdown as sent", () => {
    expect(got.raw).toEqual({ result: "success", content: "see ticket #4321 please" });
  });

  it("reads the read receipts of a message (Zulip's get_read_receipts example): its reader, never its sender", () => {
    expect(got.read_receipts).toEqual({ result: "success", msg: "", user_ids: [server.users.cordelia.id] });
  });

  it("gets its own message back through get_events, linkified and previewed", () => {
    const url = "http://example.invalid/x.png";
    expect(got.events).toEqual([
      { type: "message", id: got.sent, content: `<p><a href="https://trac.example.com/ticket/9">#9</a> and a look <a href="${url}">${url}</a></p>\n${preview(url)}` },
    ]);
  });

  it("uploads a custom emoji as Zulip's upload_custom_emoji example does, and a file whose URL serves the JPEG", async () => {
    expect(got.emoji).toEqual({ result: "success", msg: "" });
    expect(got.realm_emoji).toEqual(["party_parrot", "verona_sun"]);
    expect(got.upload.result).toBe("success");
    expect(got.upload.url).toMatch(/^\/user_uploads\/\d+\/[0-9a-f]{2}\/[\w-]{24}\/sun\.jpg$/);
    const file = await download(server, "hamlet", got.upload.url);
    expect([file.status, (await sharp(file.body).metadata()).format]).toEqual([200, "jpeg"]);
  });

  it("runs Zulip's get_realm_exports and export_realm examples: the administrator's export is listed, the member is refused", async () => {
    expect(got.exports_before).toEqual({ result: "success", msg: "", exports: [] });
    expect(got.export).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    const listed = got.exports_after.exports as Json[];
    expect(listed.map((e) => [e.id, e.acting_user_id, e.deleted_timestamp, e.failed_timestamp])).toEqual([[got.export.id, server.users.iago.id, null, null]]);
    expect(got.export_as_member).toEqual({ result: "error", msg: "Must be an organization administrator", code: "UNAUTHORIZED_PRINCIPAL" });
  });
});
