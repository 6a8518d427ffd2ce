import { createHash } from "node:crypto";
import { remembered } from "./remembered.js";

const emailHash = remembered((email: string): string => createHash("md5").update(email.toLowerCase()).digest("hex"));

/** The email-derived (Gravatar) avatar URL. */
export function gravatarUrl(email: string, version: number, medium = false): string {
  return `https://secure.gravatar.com/avatar/${emailHash(email)}?d=identicon${medium ? "&s=500" : ""}&version=${version}`;
}
