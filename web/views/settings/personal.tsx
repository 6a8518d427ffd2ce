/** Personal settings: profile, account, preferences, notifications, muted users, alert words, status. */
import { useState } from "preact/hooks";
import { addAlertWords, deleteAvatar, removeAlertWords, setMuted, setStatus, updateProfileData, updateSettings, uploadAvatar } from "../../api/settings.js";
import type { State } from "../../state/types.js";
import { Avatar } from "../avatar.js";
import { askPermission, permission, playSound } from "../notifications.js";
import { Choice, Section, TextField, Toggle, useSave } from "./form.js";

const setting = (name: string) => (value: unknown) => updateSettings({ [name]: typeof value === "boolean" || typeof value === "number" ? value : String(value) });

/** Name, avatar and the organisation's custom profile fields. */
export function Profile({ s }: { s: State }) {
  const me = s.users.get(s.me);
  const { run, note, busy } = useSave();
  const editable = s.realm.realm_name_changes_disabled !== true || (me?.role ?? 400) <= 200;
  return (
    <>
      <Section title="Your name">
        {editable ? <TextField label="Name" value={me?.full_name ?? ""} save={(v) => updateSettings({ full_name: v })} autocomplete="name" /> : <p>{me?.full_name}</p>}
      </Section>
      <Section title="Avatar">
        <div class="avatar-row">
          <Avatar s={s} userId={s.me} name={me?.full_name ?? ""} size={96} />
          <label class="button">
            Upload new avatar
            <input
              type="file"
              accept="image/*"
              class="visually-hidden"
              disabled={busy}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = "";
                if (file) void run(uploadAvatar(file), "Avatar updated");
              }}
            />
          </label>
          <button type="button" class="button" disabled={busy || String(me?.avatar_url ?? "").includes("gravatar")} onClick={() => void run(deleteAvatar(), "Avatar removed")}>
            Remove avatar
          </button>
        </div>
        {note}
      </Section>
      {s.profileFields.length > 0 && (
        <Section title="Profile">
          {s.profileFields.map((f) => (
            <ProfileField key={String(f.id)} field={f} value={me?.profile_data?.[String(f.id)]?.value ?? ""} />
          ))}
        </Section>
      )}
    </>
  );
}

function ProfileField({ field, value }: { field: Record<string, unknown>; value: string }) {
  const id = Number(field.id);
  const save = (v: string) => updateProfileData([{ id, value: v === "" ? null : v }]);
  const label = String(field.name);
  if (Number(field.type) === 3) {
    let data: Record<string, { text: string; order: string }> = {};
    try {
      data = typeof field.field_data === "string" && field.field_data ? (JSON.parse(field.field_data) as typeof data) : {};
    } catch {
      // An unreadable choice list shows no choices.
    }
    const options = Object.entries(data)
      .sort((a, b) => Number(a[1].order) - Number(b[1].order))
      .map(([k, v]) => [k, v.text] as const);
    return <Choice label={label} value={value} options={[["", "(none)"], ...options]} save={save} />;
  }
  return <TextField label={label} value={value} save={save} multiline={Number(field.type) === 2} type={Number(field.type) === 5 ? "url" : "text"} />;
}

/** Email and password. */
export function Account({ s }: { s: State }) {
  const me = s.users.get(s.me);
  const [oldPassword, setOld] = useState("");
  const [newPassword, setNew] = useState("");
  const { run, note, busy } = useSave();
  return (
    <>
      <Section title="Email">
        <TextField label="Email" type="email" value={String(me?.delivery_email ?? me?.email ?? "")} save={(v) => updateSettings({ email: v })} saved={(v) => `Check your email (${v}) to confirm the new address.`} button="Change email" autocomplete="email" />
      </Section>
      <Section title="Password">
        <form
          class="field stack"
          onSubmit={(e) => {
            e.preventDefault();
            void run(updateSettings({ old_password: oldPassword, new_password: newPassword }), "Password changed").then((ok) => {
              if (ok) {
                setOld("");
                setNew("");
              }
            });
          }}
        >
          <label>
            <span>Current password</span>
            <input type="password" autocomplete="current-password" value={oldPassword} onInput={(e) => setOld(e.currentTarget.value)} />
          </label>
          <label>
            <span>New password</span>
            <input type="password" autocomplete="new-password" value={newPassword} onInput={(e) => setNew(e.currentTarget.value)} />
          </label>
          <button type="submit" class="button" disabled={busy}>
            Change password
          </button>
          {note}
        </form>
      </Section>
    </>
  );
}

const zones = (): string[] => {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
};

/** Theme, Enter-to-send, time zone, emoji set, time format. */
export function Preferences({ s }: { s: State }) {
  const st = s.settings;
  const tz = String(st.timezone ?? "");
  const tzList = zones();
  return (
    <>
      <Section title="Theme">
        <Choice label="Color scheme" value={String(st.color_scheme ?? 1)} options={[["1", "Automatic (follows system settings)"], ["3", "Light"], ["2", "Dark"]]} save={(v) => setting("color_scheme")(Number(v))} />
      </Section>
      <Section title="Writing messages">
        <Toggle label="Enter sends the message (Ctrl+Enter makes a new line)" checked={st.enter_sends === true} save={setting("enter_sends")} />
      </Section>
      <Section title="Time">
        <Choice label="Time zone" value={tz} options={[["", "(not set)"], ...(tzList.includes(tz) || tz === "" ? tzList : [tz, ...tzList]).map((z) => [z, z] as const)]} save={setting("timezone")} />
        <Toggle label="24-hour time" checked={st.twenty_four_hour_time === true} save={setting("twenty_four_hour_time")} />
      </Section>
      <Section title="Emoji">
        <Choice label="Emoji set" value={String(st.emojiset ?? "google")} options={[["google", "Google"], ["twitter", "Twitter"], ["text", "Plain text"], ["google-blob", "Google blobs (deprecated)"]]} save={setting("emojiset")} />
      </Section>
    </>
  );
}

const notificationGroups: [string, [string, string][]][] = [
  [
    "Direct messages, mentions and alert words",
    [
      ["enable_desktop_notifications", "Desktop notifications"],
      ["enable_sounds", "Audible desktop notifications"],
      ["enable_offline_email_notifications", "Email notifications when offline"],
      ["enable_offline_push_notifications", "Mobile notifications when offline"],
      ["pm_content_in_desktop_notifications", "Include message content in direct message notifications"],
      ["wildcard_mentions_notify", "Notify for @all, @everyone and @channel mentions"],
    ],
  ],
  [
    "Followed topics",
    [
      ["enable_followed_topic_desktop_notifications", "Desktop notifications"],
      ["enable_followed_topic_audible_notifications", "Audible desktop notifications"],
      ["enable_followed_topic_email_notifications", "Email notifications"],
      ["enable_followed_topic_push_notifications", "Mobile notifications"],
      ["enable_followed_topic_wildcard_mentions_notify", "Notify for wildcard mentions"],
    ],
  ],
  [
    "Channel messages",
    [
      ["enable_stream_desktop_notifications", "Desktop notifications"],
      ["enable_stream_audible_notifications", "Audible desktop notifications"],
      ["enable_stream_email_notifications", "Email notifications"],
      ["enable_stream_push_notifications", "Mobile notifications"],
    ],
  ],
];

/** Which messages notify, and how. */
export function Notifications({ s }: { s: State }) {
  const sounds = Array.isArray(s.settings.available_notification_sounds) ? (s.settings.available_notification_sounds as string[]) : [];
  const sound = String(s.settings.notification_sound ?? "zulip");
  return (
    <>
      <Section title="Desktop notifications in this browser">
        {permission.value === "granted" ? <p>This browser shows desktop notifications.</p> : null}
        {permission.value === "denied" ? <p>This browser blocks desktop notifications from this site; allow them in the browser's site settings.</p> : null}
        {permission.value === "unsupported" ? <p>This browser cannot show desktop notifications.</p> : null}
        {permission.value === "default" ? (
          <button type="button" class="button" onClick={() => void askPermission()}>
            Allow desktop notifications in this browser
          </button>
        ) : null}
      </Section>
      <Section title="Sound and unread count">
        <div class="field-row">
          <Choice label="Notification sound" value={sound} options={[["none", "None"], ...sounds.map((n) => [n, n[0]?.toUpperCase() + n.slice(1)] as const)]} save={setting("notification_sound")} />
          <button type="button" class="button" disabled={sound === "none"} onClick={() => playSound(sound)}>
            Play the notification sound
          </button>
        </div>
        <Choice
          label="Unread count in the title and icon"
          value={String(s.settings.desktop_icon_count_display ?? 1)}
          options={[["1", "All unread messages"], ["2", "Direct messages, mentions and followed topics"], ["3", "Direct messages and mentions"], ["4", "None"]]}
          save={(v) => updateSettings({ desktop_icon_count_display: Number(v) })}
        />
      </Section>
      {notificationGroups.map(([title, fields]) => (
        <Section key={title} title={title}>
          {fields.filter(([name]) => name in s.settings).map(([name, label]) => (
            <Toggle key={name} label={label} checked={s.settings[name] === true} save={setting(name)} />
          ))}
        </Section>
      ))}
    </>
  );
}

/** The people you muted, and muting someone else. */
export function MutedUsers({ s }: { s: State }) {
  const { run, note } = useSave();
  const muted = [...s.mutedUsers].map((id) => s.users.get(id)).filter((u) => u !== undefined);
  const others = [...s.users.values()].filter((u) => u.user_id !== s.me && u.is_active && !u.is_bot && !s.mutedUsers.has(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <Section title="Muted users">
      {muted.length === 0 ? <p class="empty">You have not muted anyone.</p> : null}
      <ul class="settings-list">
        {muted.map((u) => (
          <li key={u.user_id}>
            <span>{u.full_name}</span>
            <button type="button" class="button" onClick={() => void run(setMuted(u.user_id, false), "Unmuted")}>
              Unmute {u.full_name}
            </button>
          </li>
        ))}
      </ul>
      <Choice label="Mute a user" value="" options={[["", "Choose someone…"], ...others.map((u) => [String(u.user_id), u.full_name] as const)]} save={(v) => (v ? setMuted(Number(v), true) : Promise.resolve())} />
      {note}
    </Section>
  );
}

/** Words that notify you like a mention. */
export function AlertWords({ s }: { s: State }) {
  const { run, note } = useSave();
  return (
    <Section title="Alert words">
      {s.alertWords.length === 0 ? <p class="empty">No alert words yet.</p> : null}
      <ul class="settings-list">
        {s.alertWords.map((w) => (
          <li key={w}>
            <span>{w}</span>
            <button type="button" class="button" onClick={() => void run(removeAlertWords([w]), "Removed")}>
              Remove {w}
            </button>
          </li>
        ))}
      </ul>
      <TextField label="New alert word" value="" save={(v) => addAlertWords([v])} button="Add alert word" clearOnSave />
      {note}
    </Section>
  );
}

/** Your status: text, emoji, away. */
export function Status({ s }: { s: State }) {
  const mine = s.userStatus.get(s.me) ?? {};
  return (
    <Section title="Status">
      <TextField label="Status message" value={String(mine.status_text ?? "")} save={(v) => setStatus({ status_text: v })} />
      <TextField label="Status emoji name" value={String(mine.emoji_name ?? "")} save={(v) => setStatus({ emoji_name: v })} />
      <Toggle label="Set yourself as away" checked={mine.away === true} save={(v) => setStatus({ away: v })} />
    </Section>
  );
}
