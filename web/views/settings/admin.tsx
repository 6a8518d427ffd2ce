/** Organisation administration: users, invitations, the organisation's profile and its settings, grouped as Zulip groups them. */
import { useEffect, useState } from "preact/hooks";
import { createInviteLink, invite, listInvites, revokeInvite, setUserActive, updateRealm, updateUser, uploadRealmImage } from "../../api/settings.js";
import type { State, User } from "../../state/types.js";
import { sameOrigin } from "../avatar.js";
import { Choice, Section, TextField, Toggle, usePending, useSave } from "./form.js";

/** Zulip's roles, highest first. */
export const roles = [
  ["100", "Owner"],
  ["200", "Administrator"],
  ["300", "Moderator"],
  ["400", "Member"],
  ["600", "Guest"],
] as const;

const roleName = (role: number) => roles.find(([r]) => Number(r) === role)?.[1] ?? "Member";

/** Everyone in the organisation: search, role, deactivate and reactivate. */
export function Users({ s, deactivated = false }: { s: State; deactivated?: boolean }) {
  const [query, setQuery] = useState("");
  const q = query.trim().toLowerCase();
  const all = [...s.users.values()].filter((u) => u.is_active !== deactivated && u.user_id > 0 && !u.is_bot);
  const shown = all.filter((u) => !q || u.full_name.toLowerCase().includes(q) || String(u.delivery_email ?? u.email).toLowerCase().includes(q)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <Section title={deactivated ? "Deactivated users" : "Users"}>
      <div class="field">
        <label>
          <span>Search users</span>
          <input type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </label>
      </div>
      <p class="muted-text" role="status">
        {shown.length} of {all.length}
      </p>
      <table class="settings-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {shown.slice(0, 200).map((u) => (
            <UserRow key={u.user_id} s={s} u={u} />
          ))}
        </tbody>
      </table>
      {shown.length > 200 && <p class="muted-text">Showing the first 200: search to find others.</p>}
    </Section>
  );
}

function UserRow({ s, u }: { s: State; u: User }) {
  const { run, note } = useSave();
  const [role, setPending] = usePending(String(u.role));
  const email = String(u.delivery_email ?? u.email);
  return (
    <tr>
      <td>{u.full_name}</td>
      <td>{email}</td>
      <td>
        {u.user_id === s.me ? (
          roleName(u.role)
        ) : (
          <select
            aria-label={`Role of ${u.full_name}`}
            value={role}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setPending(v);
              void run(updateUser(u.user_id, { role: Number(v) }), "Role changed").then((ok) => !ok && setPending(null));
            }}
          >
            {roles.map(([v, text]) => (
              <option key={v} value={v}>
                {text}
              </option>
            ))}
          </select>
        )}
      </td>
      <td>
        {u.user_id !== s.me && (
          <button type="button" class={u.is_active ? "button danger" : "button"} onClick={() => void run(setUserActive(u.user_id, !u.is_active), u.is_active ? "Deactivated" : "Reactivated")}>
            {u.is_active ? `Deactivate ${u.full_name}` : `Reactivate ${u.full_name}`}
          </button>
        )}
        {note}
      </td>
    </tr>
  );
}

/** Inviting people by email or with a reusable link; the invitations not yet used. */
export function Invites({ s }: { s: State }) {
  const [emails, setEmails] = useState("");
  const [inviteAs, setInviteAs] = useState("400");
  const [link, setLink] = useState("");
  const [pending, setPending] = useState<Record<string, unknown>[]>([]);
  const { run, note, busy } = useSave();
  const defaults = Array.isArray(s.realm.realm_default_streams) ? (s.realm.realm_default_streams as { stream_id: number }[]).map((d) => d.stream_id) : [];
  const refresh = () =>
    void listInvites().then(
      (r) => setPending(r.invites),
      () => setPending([]),
    );
  useEffect(refresh, []);
  return (
    <>
      <Section title="Invite users">
        <form
          class="field stack"
          onSubmit={(e) => {
            e.preventDefault();
            void run(invite(emails, Number(inviteAs), defaults), "Invitations sent").then((ok) => {
              if (ok) {
                setEmails("");
                refresh();
              }
            });
          }}
        >
          <label>
            <span>Emails (one per line or separated by commas)</span>
            <textarea rows={3} value={emails} onInput={(e) => setEmails(e.currentTarget.value)} />
          </label>
          <label>
            <span>Invite as</span>
            <select value={inviteAs} onChange={(e) => setInviteAs(e.currentTarget.value)}>
              {roles.map(([v, text]) => (
                <option key={v} value={v}>
                  {text}
                </option>
              ))}
            </select>
          </label>
          <div class="buttons">
            <button type="submit" class="button" disabled={busy}>
              Invite
            </button>
            <button
              type="button"
              class="button"
              disabled={busy}
              onClick={() =>
                void run(
                  createInviteLink(Number(inviteAs), defaults).then((r) => {
                    setLink(r.invite_link);
                    refresh();
                  }),
                  "Link created",
                )
              }
            >
              Generate invite link
            </button>
          </div>
          {link && (
            <label>
              <span>Invitation link</span>
              <input readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
            </label>
          )}
          {note}
        </form>
      </Section>
      <Section title="Invitations">
        {pending.length === 0 ? <p class="empty">No invitations waiting.</p> : null}
        <ul class="settings-list">
          {pending.map((i) => (
            <PendingInvite key={`${String(i.is_multiuse)}${String(i.id)}`} invite={i} done={refresh} />
          ))}
        </ul>
      </Section>
    </>
  );
}

function PendingInvite({ invite: i, done }: { invite: Record<string, unknown>; done: () => void }) {
  const { run, note } = useSave();
  const multiuse = i.is_multiuse === true;
  const what = multiuse ? `Link ${String(i.link_url ?? "")}` : String(i.email);
  return (
    <li>
      <span>{what}</span>
      <span class="muted-text">{roleName(Number(i.invited_as))}</span>
      <button type="button" class="button" onClick={() => void run(revokeInvite(Number(i.id), multiuse), "Revoked").then(done)}>
        Revoke {multiuse ? "link" : String(i.email)}
      </button>
      {note}
    </li>
  );
}

/** An icon or logo this server stores (its defaults live on other origins or at Zulip's /static/ paths). */
const uploaded = (url: unknown): boolean => typeof url === "string" && sameOrigin(url) && url.startsWith("/user_avatars/");

/** The organisation's name, description, icon and logo. */
export function OrgProfile({ s }: { s: State }) {
  const { run, note } = useSave();
  const image = (kind: "icon" | "logo", label: string) => (
    <label class="button">
      {label}
      <input
        type="file"
        accept="image/*"
        class="visually-hidden"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = "";
          if (file) void run(uploadRealmImage(kind, file), "Uploaded");
        }}
      />
    </label>
  );
  return (
    <Section title="Organization profile">
      <TextField label="Organization name" value={String(s.realm.realm_name ?? "")} save={(v) => updateRealm({ name: v })} />
      <TextField label="Organization description" value={String(s.realm.realm_description ?? "")} save={(v) => updateRealm({ description: v })} multiline />
      <div class="avatar-row">
        {uploaded(s.realm.realm_icon_url) && <img class="realm-image" src={String(s.realm.realm_icon_url)} alt="Organization icon" width={48} height={48} />}
        {image("icon", "Upload icon")}
        {uploaded(s.realm.realm_logo_url) && <img class="realm-image" src={String(s.realm.realm_logo_url)} alt="Organization logo" height={48} />}
        {image("logo", "Upload logo")}
      </div>
      {note}
    </Section>
  );
}

type Spec = [key: string, label: string, kind: "bool" | "number" | readonly (readonly [string, string])[]];

const policy = [
  ["1", "Members"],
  ["2", "Administrators"],
  ["3", "Full members"],
  ["4", "Moderators"],
] as const;

/** PATCH /realm's settings in Zulip's groups: "Organization settings" and "Organization permissions". */
const settingGroups: Record<string, [string, Spec[]][]> = {
  settings: [
    ["Notifications", [["send_welcome_emails", "Send emails introducing Zulip to new users", "bool"], ["message_content_allowed_in_email_notifications", "Allow message content in message notification emails", "bool"], ["digest_emails_enabled", "Send weekly digest emails to inactive users", "bool"]]],
    ["Message editing", [["allow_message_editing", "Allow message editing", "bool"], ["allow_edit_history", "Enable message edit history", "bool"]]],
    ["Message feed", [["mandatory_topics", "Require topics in channel messages", "bool"], ["inline_image_preview", "Show previews of uploaded and linked images and videos", "bool"], ["inline_url_embed_preview", "Show previews of linked websites", "bool"]]],
    ["Other settings", [["default_language", "Language for automated messages and invitation emails", [["en", "English"]]], ["enable_read_receipts", "Enable read receipts", "bool"], ["enable_spectator_access", "Allow creating web-public channels (visible to anyone on the Internet)", "bool"]]],
  ],
  permissions: [
    ["Joining the organization", [["invite_required", "Invitations are required for joining the organization", "bool"], ["emails_restricted_to_domains", "Restrict email domains of new users", "bool"], ["waiting_period_threshold", "Waiting period before new members turn into full members (days)", "number"]]],
    ["Channel permissions", [["invite_to_stream_policy", "Who can add users to channels", policy]]],
    ["Invitations", [["invite_to_realm_policy", "Who can invite users to this organization", [...policy, ["6", "Nobody"]]]]],
    ["Other permissions", [["edit_topic_policy", "Who can move messages to another topic", [...policy, ["5", "Everyone"], ["6", "Nobody"]]], ["user_group_edit_policy", "Who can administer user groups", policy], ["private_message_policy", "Who can use direct messages", [["1", "Anyone"], ["2", "Nobody"]]]]],
  ],
};

/** The PATCH /realm settings of one of Zulip's two pages, only those this server reports. */
export function RealmSettings({ s, page }: { s: State; page: "settings" | "permissions" }) {
  return (
    <>
      {(settingGroups[page] ?? []).map(([title, specs]) => {
        const present = specs.filter(([key]) => `realm_${key}` in s.realm);
        if (present.length === 0) return null;
        return (
          <Section key={title} title={title}>
            {present.map(([key, label, kind]) => {
              const value = s.realm[`realm_${key}`];
              const save = (v: unknown) => updateRealm({ [key]: typeof v === "boolean" || typeof v === "number" ? v : String(v) });
              if (kind === "bool") return <Toggle key={key} label={label} checked={value === true} save={save} />;
              if (kind === "number") return <TextField key={key} label={label} value={String(value ?? "")} save={(v) => save(Number(v))} />;
              return <Choice key={key} label={label} value={String(value ?? "")} options={kind} save={(v) => save(/^\d+$/.test(v) ? Number(v) : v)} />;
            })}
          </Section>
        );
      })}
    </>
  );
}
