import fs from "node:fs";
import yazl from "yazl";

/** Writes a zip archive: JSON values are serialised, buffers stored as they are. */
export async function writeZip(file: string, entries: Iterable<[string, unknown]>): Promise<void> {
  const zip = new yazl.ZipFile();
  const done = new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(file);
    out.on("close", () => resolve());
    out.on("error", reject);
    zip.outputStream.pipe(out);
  });
  for (const [name, value] of entries) zip.addBuffer(Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value, null, 1)), name);
  zip.end();
  await done;
}

/** A Slack user as users.json lists one (the fields the import reads, and some it ignores). */
export function slackUser(id: string, name: string, realName: string, extra: Record<string, unknown> = {}, profile: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    team_id: "T0001",
    name,
    deleted: false,
    real_name: realName,
    tz: "America/Chicago",
    is_admin: false,
    is_owner: false,
    is_primary_owner: false,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: false,
    updated: 1700000000,
    profile: { real_name: realName, display_name: name, email: `${name}@example.test`, avatar_hash: "g0000", ...profile },
    ...extra,
  };
}

/** A channel as channels.json and groups.json list one. */
export function slackChannel(id: string, name: string, members: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name,
    created: 1700000000,
    creator: members[0],
    is_archived: false,
    is_general: name === "general",
    members,
    pins: [],
    topic: { value: "", creator: "", last_set: 0 },
    purpose: { value: "", creator: "", last_set: 0 },
    ...extra,
  };
}
