import type { DueTimer } from "../base/due-timer.js";
import type { CacheChange } from "../events/changes.js";
import type { Caches } from "./index.js";

/** Applies committed changes to this process's caches. */
export function applyChanges(ctx: Caches & { scheduledMessages: DueTimer; mail: DueTimer }, changes: readonly CacheChange[]): void {
  for (const change of changes) {
    switch (change.cache) {
      case "user":
        ctx.users.forget(change.id);
        break;
      case "realm":
        ctx.realms.forget(change.id);
        break;
      case "sessions":
        ctx.sessions.forgetUser(change.userId);
        break;
      case "linkifiers":
        ctx.linkifiers.forget(change.realmId);
        break;
      case "alert_words":
        ctx.alertWords.forget(change.realmId);
        break;
      case "scheduled_messages":
        ctx.scheduledMessages.wake(change.dueAt);
        break;
      case "mail":
        ctx.mail.wake(change.dueAt);
        break;
      case "all":
        ctx.users.forgetAll();
        ctx.realms.forgetAll();
        ctx.linkifiers.forgetAll();
        ctx.groups.forgetAll();
        ctx.sessions.forgetAll();
        ctx.alertWords.forgetAll();
        break;
    }
  }
}
