import {
  checkCreateProfileField,
  checkDeleteProfileField,
  checkRemoveProfileData,
  checkReorderProfileFields,
  checkUpdateProfileData,
  checkUpdateProfileField,
} from "../actions/profile-fields.js";
import { profileFieldsOfRealm } from "../db/queries/profile-fields.js";
import type { UserRow } from "../db/queries/users.js";
import { endpoint } from "../http/endpoint.js";
import { adminRequired } from "../base/errors.js";
import { bool, int, isDict, isInt, isList, json, pathInt, str } from "../http/params.js";
import { requireHuman } from "../http/human.js";
import { fieldDict, isFieldData, isProfileValue } from "../lib/users/profile-fields.js";
import { isAdmin } from "../lib/users/roles.js";

function requireAdmin(user: UserRow): void {
  if (!isAdmin(user)) throw adminRequired();
}

/** Custom profile fields: the realm's definitions (admins) and each user's own values. */
export const profileFieldEndpoints = [
  endpoint({
    method: "GET",
    path: "/realm/profile_fields",
    params: {},
    async handler({ ctx, user }) {
      return { custom_fields: (await profileFieldsOfRealm(ctx.db, user.realm_id)).map(fieldDict) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/realm/profile_fields",
    params: {
      name: str({ trim: true }).default(""),
      hint: str().default(""),
      field_data: json(isFieldData).default({}),
      field_type: int(),
      display_in_profile_summary: bool().default(false),
      required: bool().default(false),
    },
    async handler({ ctx, user, params }) {
      requireAdmin(user);
      const id = await checkCreateProfileField(ctx, user.realm_id, {
        name: params.name,
        hint: params.hint,
        fieldType: params.field_type,
        fieldData: params.field_data,
        displayInProfileSummary: params.display_in_profile_summary,
        required: params.required,
      });
      return { id };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/realm/profile_fields",
    params: { order: json(isList(isInt())) },
    async handler({ ctx, user, params }) {
      requireAdmin(user);
      await checkReorderProfileFields(ctx, user.realm_id, params.order);
      return {};
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/realm/profile_fields/:field_id",
    params: {
      name: str({ trim: true }).optional(),
      hint: str().optional(),
      field_data: json(isFieldData).optional(),
      required: bool().optional(),
      display_in_profile_summary: bool().optional(),
    },
    async handler({ ctx, user, params, path }) {
      requireAdmin(user);
      await checkUpdateProfileField(ctx, user.realm_id, pathInt(path.field_id), {
        name: params.name,
        hint: params.hint,
        fieldData: params.field_data,
        required: params.required,
        displayInProfileSummary: params.display_in_profile_summary,
      });
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/realm/profile_fields/:field_id",
    params: {},
    async handler({ ctx, user, path }) {
      requireAdmin(user);
      await checkDeleteProfileField(ctx, user.realm_id, pathInt(path.field_id));
      return {};
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/users/me/profile_data",
    params: { data: json(isList(isDict({ id: isInt(), value: isProfileValue }))) },
    async handler({ ctx, user, params }) {
      requireHuman(user);
      await checkUpdateProfileData(ctx, user, params.data, { clearEmpty: false });
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/users/me/profile_data",
    params: { data: json(isList(isInt())) },
    async handler({ ctx, user, params }) {
      requireHuman(user);
      await checkRemoveProfileData(ctx, user, params.data);
      return {};
    },
  }),
];
