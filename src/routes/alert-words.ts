import { checkAddAlertWords, checkRemoveAlertWords } from "../actions/alert-words.js";
import { alertWordsOf } from "../db/queries/alert-words.js";
import { endpoint } from "../http/endpoint.js";
import { isList, isStr, json } from "../http/params.js";

/** The caller's alert words. */
export const alertWordEndpoints = [
  endpoint({
    method: "GET",
    path: "/users/me/alert_words",
    params: {},
    async handler({ ctx, user }) {
      return { alert_words: await alertWordsOf(ctx.db, user.id) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/users/me/alert_words",
    params: { alert_words: json(isList(isStr({ maxLength: 100 }))) },
    async handler({ ctx, user, params }) {
      return { alert_words: await checkAddAlertWords(ctx, user, params.alert_words) };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/users/me/alert_words",
    params: { alert_words: json(isList(isStr())) },
    async handler({ ctx, user, params }) {
      return { alert_words: await checkRemoveAlertWords(ctx, user, params.alert_words) };
    },
  }),
];
