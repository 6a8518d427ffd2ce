import { checkCreateDrafts, checkDeleteDraft, checkEditDraft } from "../actions/drafts.js";
import { draftsOf } from "../db/queries/drafts.js";
import { endpoint } from "../http/endpoint.js";
import { isList, json, pathInt } from "../http/params.js";
import { apiDraft, checkDraftsEnabled, parseDraft } from "../lib/messages/drafts.js";

/** Server-side drafts, synchronised between a user's clients. */
export const draftEndpoints = [
  endpoint({
    method: "GET",
    path: "/drafts",
    params: {},
    async handler({ ctx, user }) {
      checkDraftsEnabled(user);
      const drafts = (await draftsOf(ctx.db, user.id)).map(apiDraft);
      return { count: drafts.length, drafts };
    },
  }),
  endpoint({
    method: "POST",
    path: "/drafts",
    params: { drafts: json(isList(parseDraft)) },
    async handler({ ctx, user, params }) {
      return { ids: await checkCreateDrafts(ctx, user, params.drafts) };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/drafts/:draft_id",
    params: { draft: json(parseDraft) },
    async handler({ ctx, user, params, path }) {
      await checkEditDraft(ctx, user, pathInt(path.draft_id), params.draft);
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/drafts/:draft_id",
    params: {},
    async handler({ ctx, user, path }) {
      await checkDeleteDraft(ctx, user, pathInt(path.draft_id));
      return {};
    },
  }),
];
