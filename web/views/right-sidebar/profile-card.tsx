/** A person's card: avatar, name, status, role, local time, custom profile fields, a button to write to them. */
import { dmKeyOf, userName } from "../../state/conversation.js";
import { termsToHash } from "../../state/narrow.js";
import type { State } from "../../state/types.js";
import { Avatar } from "../avatar.js";
import { closeDialog } from "../overlay.js";
import { Emoji } from "../message-row.js";
import { useStateOf } from "../select.js";
import { presenceOf } from "./right-sidebar.js";

const roles: Record<number, string> = { 100: "Organization owner", 200: "Organization administrator", 300: "Moderator", 400: "Member", 600: "Guest" };

/** Only web links become links (a field's value is the user's text). */
const safeUrl = (value: string) => (/^https?:\/\//i.test(value) ? value : null);

export function ProfileCard({ userId }: { userId: number }) {
  const s = useStateOf((st) => [st.users, st.userStatus, st.presence, st.profileFields, st.realmEmoji]);
  if (!s) return null;
  const u = s.users.get(userId);
  if (!u) return <p>Unknown user.</p>;
  const status = s.userStatus.get(userId) ?? {};
  const presence = presenceOf(s, userId, Date.now() / 1000);
  let localTime = "";
  if (u.timezone) {
    try {
      localTime = new Intl.DateTimeFormat(undefined, { timeZone: u.timezone, hour: "numeric", minute: "2-digit", hour12: s.settings.twenty_four_hour_time !== true }).format(new Date());
    } catch {
      localTime = "";
    }
  }
  const fields = [...s.profileFields].sort((a, b) => Number(a.order) - Number(b.order));
  return (
    <div class="profile-card">
      <div class="profile-head">
        <Avatar s={s} userId={u.user_id} name={u.full_name} size={80} />
        <div>
          <div class="profile-name">
            <span class={`dot ${presence}`} aria-hidden="true" /> {u.full_name}
          </div>
          {(typeof status.status_text === "string" || typeof status.emoji_name === "string") && (
            <div class="profile-status">
              {typeof status.emoji_name === "string" && status.emoji_name !== "" && <Emoji s={s} r={{ emoji_name: status.emoji_name, emoji_code: String(status.emoji_code ?? ""), reaction_type: String(status.reaction_type ?? "unicode_emoji") }} />}{" "}
              {typeof status.status_text === "string" ? status.status_text : ""}
            </div>
          )}
          <div class="profile-meta">{u.is_bot ? "Bot" : (roles[u.role] ?? "Member")}</div>
          <div class="profile-meta">{u.email}</div>
          {localTime && <div class="profile-meta">Local time: {localTime}</div>}
        </div>
      </div>
      {fields.length > 0 && (
        <dl class="profile-fields">
          {fields.map((f) => {
            const data = u.profile_data?.[String(f.id)];
            if (!data || data.value === "") return null;
            return [<dt key={`t${String(f.id)}`}>{String(f.name)}</dt>, <dd key={`d${String(f.id)}`}>{fieldValue(s, f, data)}</dd>];
          })}
        </dl>
      )}
      {u.user_id !== s.me && (
        <div class="buttons">
          <a
            class="button primary"
            href={termsToHash([{ operator: "dm", operand: dmKeyOf([u.user_id], s.me) }], s)}
            onClick={() => closeDialog()}
          >
            Send direct message
          </a>
        </div>
      )}
    </div>
  );
}

function fieldValue(s: State, f: Record<string, unknown>, data: { value: string; rendered_value?: string }) {
  const type = Number(f.type);
  if (data.rendered_value !== undefined && data.rendered_value !== null) return <div class="rendered" dangerouslySetInnerHTML={{ __html: data.rendered_value }} />;
  if (type === 3) {
    try {
      const choices = JSON.parse(String(f.field_data)) as Record<string, { text: string }>;
      return choices[data.value]?.text ?? data.value;
    } catch {
      return data.value;
    }
  }
  if (type === 6) {
    try {
      return (JSON.parse(data.value) as number[]).map((id) => userName(s, id)).join(", ");
    } catch {
      return data.value;
    }
  }
  if (type === 5) {
    const url = safeUrl(data.value);
    return url ? (
      <a href={url} target="_blank" rel="noopener noreferrer">
        {data.value}
      </a>
    ) : (
      data.value
    );
  }
  return data.value;
}
