/** The organisation's lists: user groups, custom emoji, linkifiers, code playgrounds, default channels. */
import { useState } from "preact/hooks";
import { adminCall, uploadEmoji } from "../../api/settings.js";
import type { Group, State } from "../../state/types.js";
import { Choice, Section, TextField, useSave } from "./form.js";

type Dict = Record<string, unknown>;
const list = (v: unknown): Dict[] => (Array.isArray(v) ? (v as Dict[]) : []);

/** A form of a few text inputs and a submit button, cleared once the server accepts it. */
function AddForm({ fields, button, submit }: { fields: [name: string, label: string][]; button: string; submit: (values: Record<string, string>) => Promise<unknown> }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const { run, note, busy } = useSave();
  return (
    <form
      class="field stack"
      onSubmit={(e) => {
        e.preventDefault();
        void run(submit(values), "Added").then((ok) => ok && setValues({}));
      }}
    >
      {fields.map(([name, label]) => (
        <label key={name}>
          <span>{label}</span>
          <input value={values[name] ?? ""} onInput={(e) => setValues({ ...values, [name]: e.currentTarget.value })} />
        </label>
      ))}
      <button type="submit" class="button" disabled={busy}>
        {button}
      </button>
      {note}
    </form>
  );
}

/** A list row with a remove button reporting the server's answer. */
function Row({ label, detail, remove, removeLabel }: { label: string; detail?: string; remove: () => Promise<unknown>; removeLabel: string }) {
  const { run, note } = useSave();
  return (
    <li>
      <span>{label}</span>
      {detail && <code>{detail}</code>}
      <button type="button" class="button" onClick={() => void run(remove(), "Removed")}>
        {removeLabel}
      </button>
      {note}
    </li>
  );
}

/** Linkifiers: a pattern and the URL template it links to. */
export function Linkifiers({ s }: { s: State }) {
  const items = list(s.realm.realm_linkifiers);
  return (
    <Section title="Linkifiers">
      <ul class="settings-list">
        {items.map((l) => (
          <LinkifierRow key={String(l.id)} l={l} />
        ))}
      </ul>
      <AddForm fields={[["pattern", "Pattern"], ["url_template", "URL template"]]} button="Add linkifier" submit={(v) => adminCall("POST", "realm/filters", { pattern: v.pattern ?? "", url_template: v.url_template ?? "" })} />
    </Section>
  );
}

/** One linkifier: its pattern and template, edited in place (PATCH /realm/filters/{id} takes both), or deleted. */
function LinkifierRow({ l }: { l: Dict }) {
  const id = Number(l.id);
  const pattern = String(l.pattern);
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState({ pattern, url_template: String(l.url_template) });
  const { run, note, busy } = useSave();
  if (!editing) {
    return (
      <li>
        <span>{pattern}</span>
        <code>{String(l.url_template)}</code>
        <button type="button" class="button" onClick={() => (setValues({ pattern, url_template: String(l.url_template) }), setEditing(true))}>
          Edit linkifier {pattern}
        </button>
        <button type="button" class="button" onClick={() => void run(adminCall("DELETE", `realm/filters/${id}`), "Removed")}>
          Delete linkifier {pattern}
        </button>
        {note}
      </li>
    );
  }
  return (
    <li>
      <form
        class="field stack"
        aria-label={`Edit linkifier ${pattern}`}
        onSubmit={(e) => {
          e.preventDefault();
          void run(adminCall("PATCH", `realm/filters/${id}`, values), "Saved").then((ok) => ok && setEditing(false));
        }}
      >
        <label>
          <span>Pattern</span>
          <input value={values.pattern} onInput={(e) => setValues({ ...values, pattern: e.currentTarget.value })} />
        </label>
        <label>
          <span>URL template</span>
          <input value={values.url_template} onInput={(e) => setValues({ ...values, url_template: e.currentTarget.value })} />
        </label>
        <div class="buttons">
          <button type="submit" class="button" disabled={busy}>
            Save linkifier
          </button>{" "}
          <button type="button" class="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </div>
        {note}
      </form>
    </li>
  );
}

/** Code playgrounds: where a code block of a language can be opened. */
export function Playgrounds({ s }: { s: State }) {
  const items = list(s.realm.realm_playgrounds);
  return (
    <Section title="Code playgrounds">
      <ul class="settings-list">
        {items.map((p) => (
          <Row key={String(p.id)} label={`${String(p.name)} (${String(p.pygments_language)})`} detail={String(p.url_template)} remove={() => adminCall("DELETE", `realm/playgrounds/${Number(p.id)}`)} removeLabel={`Delete playground ${String(p.name)}`} />
        ))}
      </ul>
      <AddForm
        fields={[["pygments_language", "Language"], ["name", "Name"], ["url_template", "URL template"]]}
        button="Add code playground"
        submit={(v) => adminCall("POST", "realm/playgrounds", { name: v.name ?? "", pygments_language: v.pygments_language ?? "", url_template: v.url_template ?? "" })}
      />
    </Section>
  );
}

/** Channels every new user joins. */
export function DefaultChannels({ s }: { s: State }) {
  const ids = new Set(list(s.realm.realm_default_streams).map((d) => Number(d.stream_id)));
  const others = [...s.streams.values()].filter((st) => !ids.has(st.stream_id)).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Section title="Default channels">
      <ul class="settings-list">
        {[...ids].map((id) => {
          const name = s.streams.get(id)?.name ?? String(id);
          return <Row key={id} label={name} remove={() => adminCall("DELETE", "default_streams", { stream_id: id })} removeLabel={`Remove ${name}`} />;
        })}
      </ul>
      <Choice label="Add a default channel" value="" options={[["", "Choose a channel…"], ...others.map((st) => [String(st.stream_id), st.name] as const)]} save={(v) => (v ? adminCall("POST", "default_streams", { stream_id: Number(v) }) : Promise.resolve())} />
    </Section>
  );
}

/** The organisation's user groups, their members, and new groups. */
export function UserGroups({ s }: { s: State }) {
  const groups = [...s.groups.values()].filter((g) => !g.is_system_group && g.deactivated !== true).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Section title="User groups">
      {groups.length === 0 ? <p class="empty">No user groups yet.</p> : null}
      {groups.map((g) => (
        <GroupCard key={g.id} s={s} g={g} />
      ))}
      <AddForm
        fields={[["name", "Group name"], ["description", "Group description"]]}
        button="Create user group"
        submit={(v) => adminCall("POST", "user_groups/create", { name: v.name ?? "", description: v.description ?? "", members: [s.me] })}
      />
    </Section>
  );
}

function GroupCard({ s, g }: { s: State; g: Group }) {
  const { run, note } = useSave();
  const members = g.members.map((id) => s.users.get(id)).filter((u) => u !== undefined);
  const others = [...s.users.values()].filter((u) => u.is_active && !g.members.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <div class="group-card">
      <h4>{g.name}</h4>
      <TextField label={`Name of ${g.name}`} value={g.name} save={(v) => adminCall("PATCH", `user_groups/${g.id}`, { name: v })} />
      <TextField label={`Description of ${g.name}`} value={g.description} save={(v) => adminCall("PATCH", `user_groups/${g.id}`, { description: v })} />
      <ul class="settings-list">
        {members.map((u) => (
          <li key={u.user_id}>
            <span>{u.full_name}</span>
            <button type="button" class="button" onClick={() => void run(adminCall("POST", `user_groups/${g.id}/members`, { delete: [u.user_id] }), "Removed")}>
              Remove {u.full_name} from {g.name}
            </button>
          </li>
        ))}
      </ul>
      <Choice label={`Add a member to ${g.name}`} value="" options={[["", "Choose someone…"], ...others.map((u) => [String(u.user_id), u.full_name] as const)]} save={(v) => (v ? adminCall("POST", `user_groups/${g.id}/members`, { add: [Number(v)] }) : Promise.resolve())} />
      <button type="button" class="button danger" onClick={() => void run(adminCall("DELETE", `user_groups/${g.id}`), "Deleted")}>
        Delete group {g.name}
      </button>
      {note}
    </div>
  );
}

/** Custom emoji: upload and remove. */
export function CustomEmoji({ s }: { s: State }) {
  const [name, setName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const { run, note, busy } = useSave();
  const emoji = Object.values(s.realmEmoji).filter((e) => e.deactivated !== true);
  return (
    <Section title="Custom emoji">
      <ul class="settings-list">
        {emoji.map((e) => (
          <Row key={String(e.id)} label={`:${String(e.name)}:`} remove={() => adminCall("DELETE", `realm/emoji/${encodeURIComponent(String(e.name))}`)} removeLabel={`Delete :${String(e.name)}:`} />
        ))}
      </ul>
      <form
        class="field stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (!file) return;
          void run(uploadEmoji(name, file), "Added").then((ok) => ok && setName(""));
        }}
      >
        <label>
          <span>Emoji name</span>
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          <span>Emoji image</span>
          <input type="file" accept="image/*" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
        </label>
        <button type="submit" class="button" disabled={busy || !file}>
          Add emoji
        </button>
        {note}
      </form>
    </Section>
  );
}

/** Zulip's custom profile field types; the first seven are offered here (an external account needs a kind of site, which this form does not ask). */
const fieldTypes = [
  ["1", "Short text"],
  ["2", "Long text"],
  ["4", "Date"],
  ["5", "Link"],
  ["6", "Users"],
  ["8", "Pronouns"],
  ["3", "List of options"],
  ["7", "External account"],
] as const;

/** Custom profile fields: add, rename and describe, move up and down, delete. */
export function ProfileFields({ s }: { s: State }) {
  const fields = s.profileFields;
  const [name, setName] = useState("");
  const [hint, setHint] = useState("");
  const [type, setType] = useState("1");
  const [choices, setChoices] = useState("");
  const { run, note, busy } = useSave();
  const order = fields.map((f) => Number(f.id));
  // A list of options: one per line, as Zulip's field_data {"<id>": {text, order}}.
  const fieldData = () => Object.fromEntries(choices.split("\n").map((c) => c.trim()).filter((c) => c !== "").map((text, i) => [String(i), { text, order: String(i + 1) }]));
  const move = (i: number, by: number) => {
    const next = [...order];
    const [id] = next.splice(i, 1);
    next.splice(i + by, 0, id ?? 0);
    return adminCall("PATCH", "realm/profile_fields", { order: next });
  };
  return (
    <>
      <Section title="Custom profile fields">
        {fields.length === 0 ? <p class="empty">No custom profile fields yet.</p> : null}
        <ol class="settings-list profile-field-list">
          {fields.map((f, i) => (
            <ProfileFieldRow key={Number(f.id)} f={f} first={i === 0} last={i === fields.length - 1} move={(by) => move(i, by)} />
          ))}
        </ol>
      </Section>
      <Section title="Add a custom profile field">
        <form
          class="field stack"
          onSubmit={(e) => {
            e.preventDefault();
            const params = { name, hint, field_type: Number(type), ...(type === "3" ? { field_data: fieldData() } : {}) };
            void run(adminCall("POST", "realm/profile_fields", params), "Added").then((ok) => {
              if (ok) {
                setName("");
                setHint("");
                setChoices("");
              }
            });
          }}
        >
          <label>
            <span>Field type</span>
            <select value={type} onChange={(e) => setType(e.currentTarget.value)}>
              {fieldTypes.slice(0, 7).map(([v, text]) => (
                <option key={v} value={v}>
                  {text}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Label</span>
            <input value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            <span>Hint</span>
            <input value={hint} onInput={(e) => setHint(e.currentTarget.value)} />
          </label>
          {type === "3" ? (
            <label>
              <span>Options, one per line</span>
              <textarea rows={4} value={choices} onInput={(e) => setChoices(e.currentTarget.value)} />
            </label>
          ) : null}
          <button type="submit" class="button" disabled={busy}>
            Add profile field
          </button>
          {note}
        </form>
      </Section>
    </>
  );
}

function ProfileFieldRow({ f, first, last, move }: { f: Dict; first: boolean; last: boolean; move: (by: number) => Promise<unknown> }) {
  const { run, note } = useSave();
  const id = Number(f.id);
  const name = String(f.name);
  const type = fieldTypes.find(([v]) => Number(v) === Number(f.type))?.[1] ?? "Other";
  return (
    <li class="profile-field">
      <div class="profile-field-head">
        <span>
          <strong>{name}</strong> <span class="muted">({type})</span>
        </span>
        <button type="button" class="button" disabled={first} onClick={() => void run(move(-1), "Moved")} aria-label={`Move ${name} up`}>
          ↑
        </button>
        <button type="button" class="button" disabled={last} onClick={() => void run(move(1), "Moved")} aria-label={`Move ${name} down`}>
          ↓
        </button>
        <button type="button" class="button" onClick={() => void run(adminCall("DELETE", `realm/profile_fields/${id}`), "Deleted")}>
          Delete {name}
        </button>
      </div>
      <TextField label={`Label of ${name}`} value={name} save={(v) => adminCall("PATCH", `realm/profile_fields/${id}`, { name: v })} saved={() => "Saved"} />
      <TextField label={`Hint of ${name}`} value={String(f.hint ?? "")} save={(v) => adminCall("PATCH", `realm/profile_fields/${id}`, { hint: v })} saved={() => "Saved"} />
      {note}
    </li>
  );
}
