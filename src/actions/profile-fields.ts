import { isDeepStrictEqual } from "node:util";
import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import {
  deleteProfileField,
  deleteProfileValuesIn,
  insertProfileField,
  profileFieldById,
  profileFieldNameTaken,
  profileFieldsOfRealm,
  profileValueOf,
  setProfileValue,
  summaryFieldCount,
  updateProfileField,
  usersWithValueOf,
  type ProfileFieldRow,
} from "../db/queries/profile-fields.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest } from "../base/errors.js";
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  FieldType,
  checkProfileValue,
  fieldDict,
  isDefaultExternal,
  isRenderable,
  validateFieldDefinition,
  type FieldData,
} from "../lib/users/profile-fields.js";
import { emptyRenderContext, renderMarkdown } from "../markdown/index.js";

/** A new field as POST /realm/profile_fields describes it (name already stripped). */
export interface NewField {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: FieldData;
  displayInProfileSummary: boolean;
  required: boolean;
}

/** Changes PATCH /realm/profile_fields/{id} asks for; undefined = unchanged. */
export interface FieldChanges {
  name?: string;
  hint?: string;
  fieldData?: FieldData;
  displayInProfileSummary?: boolean;
  required?: boolean;
}

/** One value to set: the field and the value as sent. */
export interface ValueUpdate {
  id: number;
  value: string | number[];
}

const SUMMARY_LIMIT = 2;
const summaryLimitError = () => badRequest(`Only ${SUMMARY_LIMIT} custom profile fields can be displayed in the profile summary.`);
const notFoundError = (id: number) => badRequest(`Field id ${id} not found.`);
const duplicateLabel = () => badRequest("A field with that label already exists.");

/** Creates a custom profile field (built-in external accounts take their fixed label) and returns its id. */
export async function checkCreateProfileField(ctx: AppContext, realmId: number, spec: NewField): Promise<number> {
  return write(ctx, async (tx, outbox) => {
    if (spec.displayInProfileSummary && (await summaryFieldCount(tx, realmId)) >= SUMMARY_LIMIT) throw summaryLimitError();
    validateFieldDefinition(spec.name, spec.hint, spec.fieldType, spec.fieldData, spec.displayInProfileSummary);
    const builtIn = isDefaultExternal(spec.fieldType, spec.fieldData) ? DEFAULT_EXTERNAL_ACCOUNTS[String(spec.fieldData.subtype)] : undefined;
    const name = builtIn?.name ?? spec.name;
    const fieldData = builtIn ? { subtype: spec.fieldData.subtype } : spec.fieldData;
    if (await profileFieldNameTaken(tx, realmId, name)) throw duplicateLabel();
    const id = await insertProfileField(tx, {
      realm_id: realmId,
      name,
      hint: builtIn?.hint ?? spec.hint,
      field_type: spec.fieldType,
      field_data: hasFieldData(spec.fieldType) ? JSON.stringify(fieldData) : "",
      order: 0,
      display_in_profile_summary: spec.displayInProfileSummary ? 1 : 0,
      required: spec.required ? 1 : 0,
    });
    await announceFields(tx, outbox, realmId);
    return id;
  });
}

/** Changes a field's definition; options removed from a list-of-options field clear the values that chose them. */
export async function checkUpdateProfileField(ctx: AppContext, realmId: number, fieldId: number, changes: FieldChanges): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const field = await profileFieldById(tx, realmId, fieldId);
    if (!field) throw notFoundError(fieldId);
    if (changes.displayInProfileSummary && (await summaryFieldCount(tx, realmId, field.id)) >= SUMMARY_LIMIT) throw summaryLimitError();
    const current = parseFieldData(field.field_data);
    if (isDefaultExternal(field.field_type, current) && !onlySummaryChanges(field, current, changes)) {
      throw badRequest("Default custom field cannot be updated.");
    }
    const name = changes.name ?? field.name;
    validateFieldDefinition(
      name,
      changes.hint ?? field.hint,
      field.field_type,
      changes.fieldData ?? current,
      changes.displayInProfileSummary ?? field.display_in_profile_summary === 1,
    );
    if (changes.name !== undefined && (await profileFieldNameTaken(tx, realmId, name, field.id))) throw duplicateLabel();

    let fieldData: string | undefined;
    if (hasFieldData(field.field_type) && (changes.fieldData !== undefined || field.field_data === "")) {
      fieldData = JSON.stringify(changes.fieldData ?? {});
    }
    if (field.field_type === FieldType.SELECT && changes.fieldData !== undefined) {
      const kept = new Set(Object.keys(changes.fieldData));
      const removed = Object.keys(current).filter((key) => !kept.has(key));
      for (const userId of await deleteProfileValuesIn(tx, field.id, removed)) {
        await announceValue(outbox, realmId, userId, { id: field.id, value: null });
      }
    }
    await updateProfileField(tx, field.id, {
      name,
      hint: changes.hint ?? field.hint,
      field_data: fieldData ?? field.field_data,
      display_in_profile_summary: (changes.displayInProfileSummary ?? field.display_in_profile_summary === 1) ? 1 : 0,
      required: (changes.required ?? field.required === 1) ? 1 : 0,
    });
    await announceFields(tx, outbox, realmId);
  });
}

/** Deletes a field and all its values; only the new field list is announced. */
export async function checkDeleteProfileField(ctx: AppContext, realmId: number, fieldId: number): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const field = await profileFieldById(tx, realmId, fieldId);
    if (!field) throw notFoundError(fieldId);
    const holders = await usersWithValueOf(tx, field.id);
    await deleteProfileField(tx, field.id);
    holders.forEach((id) => outbox.invalidate({ cache: "user", id }));
    await announceFields(tx, outbox, realmId);
  });
}

/** Reorders the realm's fields: `order` must name every field; a field's order becomes its index. */
export async function checkReorderProfileFields(ctx: AppContext, realmId: number, order: readonly number[]): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const fields = await profileFieldsOfRealm(tx, realmId);
    const position = new Map<number, number>();
    order.forEach((id, index) => position.set(id, index));
    if (fields.some((f) => !position.has(f.id))) throw badRequest("Invalid order mapping.");
    for (const f of fields) await updateProfileField(tx, f.id, { order: position.get(f.id) ?? 0 });
    await announceFields(tx, outbox, realmId);
  });
}

/**
 * Sets values of `target`'s profile (all validated first); unchanged values are skipped. With
 * `clearEmpty` (PATCH /users/{id}), null or empty values remove the value instead.
 */
export async function checkUpdateProfileData(
  ctx: AppContext,
  target: UserRow,
  updates: readonly { id: number; value: string | number[] | null }[],
  opts: { clearEmpty: boolean },
): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const sets: { field: ProfileFieldRow; value: string }[] = [];
    const clears: ProfileFieldRow[] = [];
    for (const item of updates) {
      const field = await profileFieldById(tx, target.realm_id, item.id);
      if (!field) throw notFoundError(item.id);
      if (item.value === null || (opts.clearEmpty && item.value.length === 0)) clears.push(field);
      else sets.push({ field, value: await checkProfileValue(tx, field, item.value) });
    }
    for (const field of clears) await clearValue(tx, outbox, target, field.id);
    for (const { field, value } of sets) {
      const old = await profileValueOf(tx, target.id, field.id);
      if (old && old.value === value) continue;
      const rendered = isRenderable(field.field_type) ? renderMarkdown(value, emptyRenderContext(ctx.config.externalUrl)).html : null;
      await setProfileValue(tx, target.id, field.id, value, rendered);
      await announceValue(outbox, target.realm_id, target.id, rendered ? { id: field.id, value, rendered_value: rendered } : { id: field.id, value });
    }
  });
}

/** Removes values of the caller's own profile (fields without a value are skipped). */
export async function checkRemoveProfileData(ctx: AppContext, user: UserRow, fieldIds: readonly number[]): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    for (const id of fieldIds) if (!(await profileFieldById(tx, user.realm_id, id))) throw notFoundError(id);
    for (const id of fieldIds) await clearValue(tx, outbox, user, id);
  });
}

async function clearValue(tx: Db, outbox: Outbox, target: UserRow, fieldId: number): Promise<void> {
  if (!(await profileValueOf(tx, target.id, fieldId))) return;
  await setProfileValue(tx, target.id, fieldId, null, null);
  await announceValue(outbox, target.realm_id, target.id, { id: fieldId, value: null });
}

async function announceValue(
  outbox: Outbox,
  realmId: number,
  userId: number,
  field: { id: number; value: string | null; rendered_value?: string },
): Promise<void> {
  outbox.sendToRealm({ type: "realm_user", op: "update", person: { user_id: userId, custom_profile_field: field } }, realmId);
  outbox.invalidate({ cache: "user", id: userId });
}

async function announceFields(tx: Db, outbox: Outbox, realmId: number): Promise<void> {
  const fields = (await profileFieldsOfRealm(tx, realmId)).map(fieldDict);
  outbox.sendToRealm({ type: "custom_profile_fields", fields }, realmId);
}

function hasFieldData(fieldType: number): boolean {
  return fieldType === FieldType.SELECT || fieldType === FieldType.EXTERNAL_ACCOUNT;
}

function parseFieldData(raw: string): FieldData {
  if (raw === "") return {};
  const parsed: unknown = JSON.parse(raw);
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as FieldData) : {};
}

// Built-in external accounts may only change their summary flag (the others must be absent or equal).
function onlySummaryChanges(field: ProfileFieldRow, current: FieldData, changes: FieldChanges): boolean {
  if (changes.name !== undefined && changes.name !== field.name) return false;
  if (changes.hint !== undefined && changes.hint !== field.hint) return false;
  return changes.fieldData === undefined || isDeepStrictEqual(changes.fieldData, current);
}
