import type { Db } from "../../db/index.js";
import { messagesShowingImage } from "../../db/queries/message-image-urls.js";
import { flagsOfMessages, messagesByIds } from "../../db/queries/messages.js";
import { defaultRealm } from "../../db/queries/realms.js";
import { streamById } from "../../db/queries/streams.js";
import type { UserRow } from "../../db/queries/users.js";
import { hasMessageAccess } from "./access.js";
import { webPublicStreamsEnabled } from "../channels/permissions.js";

/** How many of the newest messages showing an image are looked at. */
const MESSAGES_LOOKED_AT = 100;

/**
 * Whether /thumbnail may fetch the image at `url` for this caller: only when it shows in a
 * message the caller can read (for a caller without credentials, a message in a web-public
 * channel of an organisation open to spectators). So the proxy shows what messages show, and is
 * no open proxy for anything else.
 */
export async function mayShowImage(db: Db, user: UserRow | undefined, url: string): Promise<boolean> {
  const ids = await messagesShowingImage(db, url, MESSAGES_LOOKED_AT);
  if (ids.length === 0) return false;
  const messages = await messagesByIds(db, ids);
  if (user) {
    const flags = await flagsOfMessages(db, user.id, ids);
    for (const message of messages) if (await hasMessageAccess(db, user, message, flags.get(message.id))) return true;
    return false;
  }
  const realm = await defaultRealm(db);
  if (!realm || !webPublicStreamsEnabled(realm)) return false;
  for (const message of messages) {
    if (message.realm_id !== realm.id || message.stream_id === null) continue;
    if ((await streamById(db, message.stream_id))?.is_web_public) return true;
  }
  return false;
}
