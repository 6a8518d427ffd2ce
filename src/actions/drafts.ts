import { write, type AppContext } from "../context.js";
import { deleteDraft, draftOf, insertDraft, updateDraft } from "../db/queries/drafts.js";
import type { UserRow } from "../db/queries/users.js";
import { notFound } from "../base/errors.js";
import { apiDraft, checkDraftsEnabled, validateDraft, type DraftInput, type ValidDraft } from "../lib/messages/drafts.js";

function stored(draft: ValidDraft) {
  return { type: draft.type, to_ids: JSON.stringify(draft.to), topic: draft.topic, content: draft.content, last_edit_time: draft.lastEditTime };
}

/** Creates drafts (all validated before any is written); `drafts` add goes to the user's clients. */
export async function checkCreateDrafts(ctx: AppContext, user: UserRow, drafts: readonly DraftInput[]): Promise<number[]> {
  checkDraftsEnabled(user);
  const valid: ValidDraft[] = [];
  for (const d of drafts) valid.push(await validateDraft(ctx.db, user, d, ctx.clock.now()));
  return write(ctx, async (tx, outbox) => {
    const ids: number[] = [];
    const objects = [];
    for (const d of valid) {
      const id = await insertDraft(tx, { user_id: user.id, ...stored(d) });
      ids.push(id);
      objects.push(apiDraft({ id, user_id: user.id, ...stored(d) }));
    }
    if (objects.length > 0) outbox.send({ type: "drafts", op: "add", drafts: objects }, [user.id]);
    return ids;
  });
}

/** Replaces a draft of the user (404 `Draft does not exist` otherwise); `drafts` update to the user. */
export async function checkEditDraft(ctx: AppContext, user: UserRow, draftId: number, draft: DraftInput): Promise<void> {
  checkDraftsEnabled(user);
  // Zulip looks the draft up before validating the new content.
  if (!(await draftOf(ctx.db, user.id, draftId))) throw notFound("Draft does not exist");
  const valid = await validateDraft(ctx.db, user, draft, ctx.clock.now());
  await write(ctx, async (tx, outbox) => {
    if (!(await draftOf(tx, user.id, draftId))) throw notFound("Draft does not exist");
    await updateDraft(tx, draftId, stored(valid));
    outbox.send({ type: "drafts", op: "update", draft: apiDraft({ id: draftId, user_id: user.id, ...stored(valid) }) }, [user.id]);
  });
}

/** Deletes a draft of the user (404 `Draft does not exist` otherwise); `drafts` remove to the user. */
export async function checkDeleteDraft(ctx: AppContext, user: UserRow, draftId: number): Promise<void> {
  checkDraftsEnabled(user);
  await write(ctx, async (tx, outbox) => {
    if (!(await draftOf(tx, user.id, draftId))) throw notFound("Draft does not exist");
    await deleteDraft(tx, draftId);
    outbox.send({ type: "drafts", op: "remove", draft_id: draftId }, [user.id]);
  });
}
