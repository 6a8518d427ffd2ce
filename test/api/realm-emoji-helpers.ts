import type { Response, UploadFile } from "../harness/client.js";
import type { FixtureName, TestServer } from "../harness/server.js";

/** A 1×1 PNG. */
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** The PNG as an upload in the form field `field`. */
export const png = (field = "f1"): UploadFile => ({ field, filename: "img.png", type: "image/png", data: PNG });

/** POST /realm/emoji/{name} with files (one PNG unless told). */
export function uploadEmoji(server: TestServer, who: FixtureName, name: string, files: UploadFile[] = [png()]): Promise<Response> {
  return server.as(who).request("POST", `/realm/emoji/${encodeURIComponent(name)}`, {}, { files });
}

/** The id (as a string) and source_url of the active custom emoji with this name. */
export async function emojiNamed(server: TestServer, name: string): Promise<{ id: string; source_url: string }> {
  const all = (await server.as("iago").get("/realm/emoji")).body.emoji as Record<string, { id: string; name: string; source_url: string; deactivated: boolean }>;
  const found = Object.values(all).find((e) => e.name === name && !e.deactivated);
  if (!found) throw new Error(`no active emoji ${name}`);
  return found;
}
