import { randomInt } from "node:crypto";
import type { RealmExportRow } from "../../db/queries/exports.js";

/** A data export as the API shows it (Zulip's RealmExport object at feature level 277: no export_type). */
export interface ExportDict {
  id: number;
  export_time: number;
  acting_user_id: number;
  export_url: string | null;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  pending: boolean;
}

/** The URL path under which an export's archive is served (its storage key less `user_avatars/`). */
export const EXPORTS_KEY_PREFIX = "user_avatars/exports/";

/** The realm's exports as GET /export/realm and the realm_export event list them, by id. */
export function exportDicts(rows: readonly RealmExportRow[], externalUrl: string): ExportDict[] {
  return rows.map((row) => ({
    id: row.id,
    export_time: row.export_time / 1000,
    acting_user_id: row.acting_user_id,
    export_url: row.export_path !== null && row.deleted_time === null ? `${externalUrl}/${row.export_path}` : null,
    deleted_timestamp: row.deleted_time === null ? null : row.deleted_time / 1000,
    failed_timestamp: row.failed_time === null ? null : row.failed_time / 1000,
    pending: row.deleted_time === null && row.failed_time === null && row.export_path === null,
  }));
}

/** The top folder of a new archive: Zulip's `zulip-export-` and eight random lower-case letters and digits. */
export function exportFolderName(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  let name = "zulip-export-";
  for (let i = 0; i < 8; i++) name += alphabet[randomInt(alphabet.length)] ?? "a";
  return name;
}
