/** Channel settings: your own (color, mute, pin, notifications, leave) and, for those allowed, the channel's. */
import { useEffect, useState } from "preact/hooks";
import { archiveStream, setSubProperty, streamMembers, subscribe, unsubscribe, updateStream } from "../../api/settings.js";
import type { State, Sub } from "../../state/types.js";
import { Choice, ColorField, Section, TextField, Toggle, useSave } from "./form.js";

/** Whether this user administers the organisation (owner or administrator). */
export const isAdmin = (s: State): boolean => (s.users.get(s.me)?.role ?? 400) <= 200;

/** Your channels, each a link to its settings. */
export function ChannelList({ s }: { s: State }) {
  const subs = [...s.subs.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Section title="Your channels">
      {subs.length === 0 ? <p class="empty">You are not subscribed to any channel.</p> : null}
      <ul class="settings-list">
        {subs.map((sub) => (
          <li key={sub.stream_id}>
            <span class="swatch" style={{ background: sub.color }} aria-hidden="true" />
            <a href={`#settings/channels/${sub.stream_id}`}>{sub.name}</a>
            <span class="muted-text">{sub.invite_only ? "Private" : "Public"}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

const notificationProps: [string, string, string][] = [
  ["desktop_notifications", "Desktop notifications", "enable_stream_desktop_notifications"],
  ["audible_notifications", "Audible desktop notifications", "enable_stream_audible_notifications"],
  ["push_notifications", "Mobile notifications", "enable_stream_push_notifications"],
  ["email_notifications", "Email notifications", "enable_stream_email_notifications"],
  ["wildcard_mentions_notify", "Notify for @all mentions", "wildcard_mentions_notify"],
];

/** One channel's settings. */
export function ChannelSettings({ s, streamId }: { s: State; streamId: number }) {
  const sub = s.subs.get(streamId);
  const stream = s.streams.get(streamId);
  const { run, note } = useSave();
  if (!stream) return <p class="empty">This channel does not exist or you cannot see it.</p>;
  const admin = isAdmin(s);
  return (
    <>
      <h3 class="channel-title">
        <a href="#settings/channels">Channels</a> › {stream.name}
      </h3>
      {sub ? (
        <Section title="Personal settings">
          <ColorField label="Channel color" value={sub.color} save={(v) => setSubProperty(streamId, "color", v)} />
          <Toggle label="Mute channel" checked={sub.is_muted} save={(v) => setSubProperty(streamId, "is_muted", v)} />
          <Toggle label="Pin channel to top" checked={sub.pin_to_top} save={(v) => setSubProperty(streamId, "pin_to_top", v)} />
          {notificationProps.map(([prop, label, global]) => (
            <Toggle key={prop} label={label} checked={(sub[prop] ?? s.settings[global]) === true} save={(v) => setSubProperty(streamId, prop, v)} />
          ))}
          <button type="button" class="button danger" onClick={() => void run(unsubscribe(stream.name), "You left this channel")}>
            Leave channel
          </button>
        </Section>
      ) : (
        <p>You are not subscribed to this channel.</p>
      )}
      {admin && (
        <Section title="Channel settings">
          <TextField label="Channel name" value={stream.name} save={(v) => updateStream(streamId, { new_name: v })} />
          <TextField label="Description" value={stream.description} save={(v) => updateStream(streamId, { description: v })} multiline />
          <Choice label="Who can access the channel" value={privacyOf(stream)} options={privacyOptions} save={(v) => updateStream(streamId, privacyParams(v))} />
          <Choice label="Who can post to the channel" value={String(stream.stream_post_policy ?? 1)} options={postOptions} save={(v) => updateStream(streamId, { stream_post_policy: Number(v) })} />
        </Section>
      )}
      {(admin || sub) && <Members s={s} streamId={streamId} sub={sub} admin={admin} />}
      {admin && (
        <Section title="Archive">
          <button
            type="button"
            class="button danger"
            onClick={() => {
              if (confirm(`Archive #${stream.name}? Its messages will no longer be visible.`)) void run(archiveStream(streamId), "Channel archived");
            }}
          >
            Archive channel
          </button>
        </Section>
      )}
      {note}
    </>
  );
}

const privacyOptions = [
  ["public", "Public"],
  ["private-shared", "Private, shared history"],
  ["private", "Private, protected history"],
] as const;

const privacyOf = (stream: Record<string, unknown>): string => (!stream.invite_only ? "public" : stream.history_public_to_subscribers ? "private-shared" : "private");

const privacyParams = (v: string) => (v === "public" ? { is_private: false, history_public_to_subscribers: true } : { is_private: true, history_public_to_subscribers: v === "private-shared" });

const postOptions = [
  ["1", "Everyone"],
  ["2", "Administrators only"],
  ["3", "Everyone except new members"],
  ["4", "Administrators and moderators"],
] as const;

function Members({ s, streamId, sub, admin }: { s: State; streamId: number; sub: Sub | undefined; admin: boolean }) {
  const [fetched, setFetched] = useState<number[] | null>(null);
  const { run, note } = useSave();
  const stream = s.streams.get(streamId);
  useEffect(() => {
    if (sub?.subscribers) return;
    streamMembers(streamId).then(
      (r) => setFetched(r.subscribers),
      () => setFetched([]),
    );
  }, [streamId, sub?.subscribers]);
  const ids = sub?.subscribers ?? fetched ?? [];
  const members = ids.map((id) => s.users.get(id)).filter((u) => u !== undefined).sort((a, b) => a.full_name.localeCompare(b.full_name));
  const others = [...s.users.values()].filter((u) => u.is_active && !ids.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  const name = stream?.name ?? "";
  return (
    <Section title="Subscribers">
      <ul class="settings-list">
        {members.map((u) => (
          <li key={u.user_id}>
            <span>{u.full_name}</span>
            {(admin || u.user_id === s.me) && (
              <button type="button" class="button" onClick={() => void run(unsubscribe(name, [u.user_id]), "Unsubscribed")}>
                Unsubscribe {u.full_name}
              </button>
            )}
          </li>
        ))}
      </ul>
      <Choice label="Add subscriber" value="" options={[["", "Choose someone…"], ...others.map((u) => [String(u.user_id), u.full_name] as const)]} save={(v) => (v ? subscribe(name, [Number(v)]) : Promise.resolve())} />
      {note}
    </Section>
  );
}
