import zlib from "node:zlib";
import sharp from "sharp";
import type { Response, UploadFile } from "../harness/client.js";
import type { FixtureName, TestServer } from "../harness/server.js";

/** A solid-colour PNG of the given size, made for the test. */
export function makePng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
}

/** A file in the multipart field "file". */
export function file(filename: string, data: Buffer, type = "application/octet-stream"): UploadFile {
  return { field: "file", filename, type, data };
}

/** POST /user_uploads with these files (one unless told). */
export function upload(server: TestServer, who: FixtureName, ...files: UploadFile[]): Promise<Response> {
  return server.as(who).request("POST", "/user_uploads", {}, { files });
}

/** Uploads one file and returns its URL (fails the test otherwise). */
export async function uploaded(server: TestServer, who: FixtureName, upload_: UploadFile): Promise<string> {
  const res = await upload(server, who, upload_);
  if (res.status !== 200) throw new Error(`upload: ${JSON.stringify(res.body)}`);
  return res.body.url as string;
}

/** A raw GET of a file URL (outside /api/v1), as `who` over HTTP Basic, or with no credentials. */
export async function download(server: TestServer, who: FixtureName | undefined, url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const auth: Record<string, string> = {};
  if (who !== undefined) {
    const user = server.users[who];
    auth.authorization = "Basic " + Buffer.from(`${user.delivery_email}:${user.api_key}`).toString("base64");
  }
  const res = await fetch(server.url + url, { headers: { ...auth, ...headers } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** The path id of an upload URL. */
export function pathIdOf(url: string): string {
  return url.replace(/^\/user_uploads\//, "");
}

/** An animated GIF of `frames` frames, made for the test. */
export function makeGif(width: number, height: number, frames: number): Promise<Buffer> {
  const pages = Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 3, background: { r: 40 * i, g: 100, b: 200 - 40 * i } } }).png().toBuffer());
  return Promise.all(pages).then((pngs) => sharp(pngs, { join: { animated: true } }).gif({ delay: 100 }).toBuffer());
}

/**
 * A PNG whose header claims `width`×`height` pixels with almost no data behind it: a
 * decompression bomb's shape, cheap to make. Nothing may try to decode it.
 */
export function bombPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(Buffer.alloc(64))), chunk("IEND", Buffer.alloc(0))]);
}

/** Holds the thumbnail jobs of every process of `server` until `resumeThumbnails`. */
export function pauseThumbnails(server: TestServer): void {
  for (const app of server.apps) app.ctx.thumbnails.pause();
}

export function resumeThumbnails(server: TestServer): void {
  for (const app of server.apps) app.ctx.thumbnails.resume();
}

/** Resolves once no process of `server` has a thumbnail job waiting or running. */
export async function thumbnailsIdle(server: TestServer): Promise<void> {
  await Promise.all(server.apps.map((app) => app.ctx.thumbnails.idle()));
}
