/** A user's status as GET /users/{id}/status and /register show it: only non-empty keys. */
export function formatStatus(row: { status_text: string; emoji_name: string; emoji_code: string; reaction_type: string } | undefined, presenceEnabled: boolean): Record<string, unknown> {
  if (!row) return {};
  const out: Record<string, unknown> = {};
  if (!presenceEnabled) out.away = true;
  if (row.status_text) out.status_text = row.status_text;
  if (row.emoji_name) Object.assign(out, { emoji_name: row.emoji_name, emoji_code: row.emoji_code, reaction_type: row.reaction_type });
  return out;
}
