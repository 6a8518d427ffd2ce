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
