import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import sharp from "sharp";
import { startServer, type TestServer } from "../harness/server.js";
import { download, file, makePng, upload, uploaded } from "./uploads-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ maxFileUploadSizeMib: 1 });
});
afterAll(() => server.stop());

describe("POST /user_uploads", () => {
  it("stores the file and answers its URL as uri and url", async () => {
    const res = await upload(server, "hamlet", file("zulip.txt", Buffer.from("zulip!"), "text/plain"));
    expect(res.status).toBe(200);
    const url: string = res.body.url;
    expect(url).toMatch(new RegExp(`^/user_uploads/${server.users.hamlet.realm_id}/[0-9a-f]{1,2}/[A-Za-z0-9_-]{24}/zulip\\.txt$`));
    expect(res.body).toEqual(success({ uri: url, url }));
    const got = await download(server, "hamlet", url);
    expect(got.status).toBe(200);
    expect(got.body.toString()).toBe("zulip!");
  });

  it("needs exactly one file", async () => {
    const none = await server.as("hamlet").post("/user_uploads", { a: "b" }, { encoding: "multipart" });
    expect([none.status, none.body]).toEqual([400, error("You must specify a file to upload")]);
    const form = await server.as("hamlet").post("/user_uploads", {});
    expect([form.status, form.body]).toEqual([400, error("You must specify a file to upload")]);
    const two = await upload(server, "hamlet", file("a.txt", Buffer.from("a")), { ...file("b.txt", Buffer.from("b")), field: "other" });
    expect([two.status, two.body]).toEqual([400, error("You may only upload one file at a time")]);
    const mine = await server.as("hamlet").get("/attachments");
    expect(mine.body.attachments.map((a: { name: string }) => a.name)).toEqual(["zulip.txt"]);
  });

  it("refuses a file over max_file_upload_size_mib with Zulip's message, keeping nothing", async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 7);
    const res = await upload(server, "hamlet", file("big.bin", big));
    expect([res.status, res.body]).toEqual([400, error("Uploaded file is larger than the allowed limit of 1 MiB")]);
    const exact = await upload(server, "hamlet", file("exact.bin", Buffer.alloc(1024 * 1024, 1)));
    expect(exact.status).toBe(200);
    const names = (await server.as("hamlet").get("/attachments")).body.attachments.map((a: { name: string }) => a.name);
    expect(names).toEqual(["zulip.txt", "exact.bin"]);
  });

  it("accepts an empty file", async () => {
    const url = await uploaded(server, "othello", file("empty.txt", Buffer.alloc(0), "text/plain"));
    const got = await download(server, "othello", url);
    expect([got.status, got.body.length, got.headers.get("content-length")]).toEqual([200, 0, "0"]);
  });

  it("sanitises file names as Zulip does", async () => {
    // The path part of a name is dropped first, as Django does.
    expect(await uploaded(server, "othello", file("../../x", Buffer.from("x")))).toMatch(/\/[A-Za-z0-9_-]{24}\/x$/);
    expect(await uploaded(server, "othello", file("my  holiday -- photo (1).txt", Buffer.from("x")))).toMatch(/\/my-holiday-photo-1\.txt$/);
    expect(await uploaded(server, "othello", file("..", Buffer.from("x")))).toMatch(/\/uploaded-file$/);
    expect(await uploaded(server, "othello", file("Ünïcødé ☃.txt", Buffer.from("x")))).toMatch(/\/Ünïcødé-\.txt$/);
    // Names are URL-unquoted first; the attachment keeps the name as sent.
    expect(await uploaded(server, "othello", file("100%25 sure%21.txt", Buffer.from("x")))).toMatch(/\/100-sure\.txt$/);
    const names = (await server.as("othello").get("/attachments")).body.attachments.map((a: { name: string }) => a.name);
    expect(names).toContain("my  holiday -- photo (1).txt");
    expect(names).toContain("100% sure!.txt");
  });

  it("requires authentication before reading the body", async () => {
    const res = await server.anonymous().request("POST", "/user_uploads", {}, { files: [file("a.txt", Buffer.from("a"))] });
    expect(res.status).toBe(401);
  });

  it("enforces the realm's upload quota", async () => {
    const realm = await server.app.ctx.realms.get(server.users.hamlet.realm_id);
    if (!realm) throw new Error("no realm");
    const used = (await server.as("iago").get("/attachments")).body.upload_space_used as number;
    expect(used).toBe(6 + 1024 * 1024 + 0 + 5);
    const props = { ...JSON.parse(realm.props), upload_quota_mib: 2 };
    await server.app.ctx.store.write((tx) => tx.updateTable("realm").set({ props: JSON.stringify(props) }).where("id", "=", realm.id).execute());
    server.app.ctx.realms.forget(realm.id);
    const fits = await upload(server, "cordelia", file("fits.bin", Buffer.alloc(2 * 1024 * 1024 - used, 3)));
    expect(fits.status).toBe(200);
    const over = await upload(server, "cordelia", file("over.bin", Buffer.from("x")));
    expect([over.status, over.body]).toEqual([400, error("Upload would exceed your organization's upload quota.", "REALM_UPLOAD_QUOTA")]);
    const state = await server.as("cordelia").post("/register", { fetch_event_types: ["realm"] });
    expect(state.body.realm_upload_quota_mib).toBe(2);
    const cleared = { ...props, upload_quota_mib: null };
    await server.app.ctx.store.write((tx) => tx.updateTable("realm").set({ props: JSON.stringify(cleared) }).where("id", "=", realm.id).execute());
    server.app.ctx.realms.forget(realm.id);
  });

  it("serves an HTML file as a download, never as a page", async () => {
    const url = await uploaded(server, "hamlet", file("page.html", Buffer.from("<script>alert(1)</script>"), "text/html"));
    const got = await download(server, "hamlet", url);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-disposition")).toBe('attachment; filename="page.html"');
    expect(got.headers.get("content-type")).toBe("application/octet-stream");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("serves an image inline, detected from its bytes, and a fake image as a download", async () => {
    const png = await makePng(3, 2);
    const url = await uploaded(server, "hamlet", file("pic.png", png, "image/png"));
    const got = await download(server, "hamlet", url);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("content-disposition")).toBe('inline; filename="pic.png"');
    expect(got.headers.get("cache-control")).toBe("private, immutable");
    expect(got.body.equals(png)).toBe(true);
    const forced = await download(server, "hamlet", url.replace("/user_uploads/", "/user_uploads/download/"));
    expect([forced.status, forced.headers.get("content-disposition")]).toEqual([200, 'attachment; filename="pic.png"']);
    const fake = await uploaded(server, "hamlet", file("fake.png", Buffer.from("not a png"), "image/png"));
    expect((await download(server, "hamlet", fake)).headers.get("content-disposition")).toBe('attachment; filename="fake.png"');
  });

  it("recognises each image format from its bytes, whatever the name and declared type", async () => {
    const base = sharp({ create: { width: 8, height: 6, channels: 3, background: "#336699" } });
    const formats: [string, Buffer, string, string][] = [
      ["jpeg", await base.clone().jpeg().toBuffer(), "image/jpeg", "inline"],
      ["png", await base.clone().png().toBuffer(), "image/png", "inline"],
      ["gif", await base.clone().gif().toBuffer(), "image/gif", "inline"],
      ["webp", await base.clone().webp().toBuffer(), "image/webp", "inline"],
      ["avif", await base.clone().avif().toBuffer(), "image/avif", "inline"],
      ["tiff", await base.clone().tiff().toBuffer(), "image/tiff", "attachment"],
    ];
    for (const [name, data, type, disposition] of formats) {
      const got = await download(server, "hamlet", await uploaded(server, "hamlet", file(`${name}.bin`, data)));
      expect([name, got.headers.get("content-type"), got.headers.get("content-disposition")]).toEqual([name, type, `${disposition}; filename="${name}.bin"`]);
    }
    const noise = await download(server, "hamlet", await uploaded(server, "hamlet", file("noise.bin", Buffer.from("RIFF0000WAVEfmt "))));
    expect([noise.headers.get("content-type"), noise.headers.get("content-disposition")]).toEqual(["application/octet-stream", 'attachment; filename="noise.bin"']);
  });

  it("answers byte ranges", async () => {
    const url = await uploaded(server, "hamlet", file("digits.txt", Buffer.from("0123456789"), "text/plain"));
    const part = await download(server, "hamlet", url, { range: "bytes=2-5" });
    expect([part.status, part.body.toString(), part.headers.get("content-range")]).toEqual([206, "2345", "bytes 2-5/10"]);
    const tail = await download(server, "hamlet", url, { range: "bytes=-3" });
    expect([tail.status, tail.body.toString()]).toEqual([206, "789"]);
    const past = await download(server, "hamlet", url, { range: "bytes=20-" });
    expect([past.status, past.headers.get("content-range")]).toEqual([416, "bytes */10"]);
  });

  it("names a non-ASCII file as RFC 8187 asks", async () => {
    const url = await uploaded(server, "hamlet", file("résumé.txt", Buffer.from("cv"), "text/plain"));
    const got = await download(server, "hamlet", url);
    expect(got.headers.get("content-disposition")).toBe("attachment; filename*=utf-8''r%C3%A9sum%C3%A9.txt");
  });
});
