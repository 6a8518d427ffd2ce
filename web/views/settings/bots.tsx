/** Bots: one's own (create, API key, regenerate, deactivate, reactivate) and, for administrators, every bot of the organisation. */
import { useState } from "preact/hooks";
import { adminCall, setUserActive } from "../../api/settings.js";
import type { State } from "../../state/types.js";
import { isAdmin } from "./channels.js";
import { Section, useSave } from "./form.js";

type Dict = Record<string, unknown>;
const botTypes = [
  ["1", "Generic bot"],
  ["2", "Incoming webhook"],
] as const;
const typeName = (t: unknown) => botTypes.find(([v]) => Number(v) === Number(t))?.[1] ?? "Bot";

/** Deactivate (DELETE /bots/{id}) or reactivate (POST /users/{id}/reactivate) a bot. */
function ActiveButton({ bot }: { bot: Dict }) {
  const { run, note } = useSave();
  const id = Number(bot.user_id);
  const name = String(bot.full_name);
  return (
    <>
      {bot.is_active === false ? (
        <button type="button" class="button" onClick={() => void run(setUserActive(id, true), "Reactivated")}>
          Reactivate {name}
        </button>
      ) : (
        <button type="button" class="button" onClick={() => void run(adminCall("DELETE", `bots/${id}`), "Deactivated")}>
          Deactivate {name}
        </button>
      )}
      {note}
    </>
  );
}

function OwnBot({ bot }: { bot: Dict }) {
  const [shown, setShown] = useState(false);
  const { run, note } = useSave();
  const id = Number(bot.user_id);
  const name = String(bot.full_name);
  return (
    <li class="bot-card">
      <div class="bot-head">
        <span>
          <strong>{name}</strong> <span class="muted">({typeName(bot.bot_type)}{bot.is_active === false ? ", deactivated" : ""})</span>
        </span>
        <ActiveButton bot={bot} />
      </div>
      <dl class="bot-details">
        <dt>Bot email</dt>
        <dd>{String(bot.email)}</dd>
        <dt>API key</dt>
        <dd>
          {shown ? <code aria-label={`API key of ${name}`}>{String(bot.api_key)}</code> : null}{" "}
          <button type="button" class="button" onClick={() => setShown(!shown)} aria-expanded={shown}>
            {shown ? `Hide the API key of ${name}` : `Show the API key of ${name}`}
          </button>{" "}
          <button type="button" class="button" onClick={() => void run(adminCall("POST", `bots/${id}/api_key/regenerate`).then(() => setShown(true)), "New API key made")}>
            Regenerate the API key of {name}
          </button>
          {note}
        </dd>
      </dl>
    </li>
  );
}

/** The bots one owns, and a form to add one. */
export function YourBots({ s }: { s: State }) {
  const mine = [...s.bots.values()].filter((b) => Number(b.owner_id) === s.me).sort((a, b) => Number(a.user_id) - Number(b.user_id));
  const [values, setValues] = useState({ full_name: "", short_name: "", bot_type: "1" });
  const { run, note, busy } = useSave();
  // bot_creation_policy: 1 everyone, 2 generic bots for administrators only, 3 administrators only.
  const policy = Number(s.realm.realm_bot_creation_policy ?? 1);
  const admin = isAdmin(s);
  const types = admin || policy === 1 ? botTypes : policy === 2 ? botTypes.filter(([v]) => v === "2") : [];
  const type = types.some(([v]) => v === values.bot_type) ? values.bot_type : (types[0]?.[0] ?? "1");
  return (
    <>
      <Section title="Your bots">
        {mine.length === 0 ? <p class="empty">You have no bots.</p> : null}
        <ul class="settings-list bot-list">
          {mine.map((b) => (
            <OwnBot key={Number(b.user_id)} bot={b} />
          ))}
        </ul>
      </Section>
      <Section title="Add a new bot">
        {types.length === 0 ? (
          <p class="note">Only organization administrators can add bots.</p>
        ) : (
        <form
          class="field stack"
          onSubmit={(e) => {
            e.preventDefault();
            void run(adminCall("POST", "bots", { ...values, bot_type: Number(type) }), "Bot added").then((ok) => ok && setValues({ full_name: "", short_name: "", bot_type: type }));
          }}
        >
          <label>
            <span>Bot type</span>
            <select value={type} onChange={(e) => setValues({ ...values, bot_type: e.currentTarget.value })}>
              {types.map(([v, text]) => (
                <option key={v} value={v}>
                  {text}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Bot name</span>
            <input value={values.full_name} onInput={(e) => setValues({ ...values, full_name: e.currentTarget.value })} />
          </label>
          <label>
            <span>Bot email (before -bot@)</span>
            <input value={values.short_name} onInput={(e) => setValues({ ...values, short_name: e.currentTarget.value })} />
          </label>
          <button type="submit" class="button" disabled={busy}>
            Create bot
          </button>
          {note}
        </form>
        )}
      </Section>
    </>
  );
}

/** Every bot of the organisation, with its owner; administrators deactivate and reactivate them here. */
export function Bots({ s }: { s: State }) {
  const bots = [...s.users.values()].filter((u) => u.is_bot && u.user_id > 0 && typeof u.bot_owner_id === "number").sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <Section title="Bots">
      {bots.length === 0 ? <p class="empty">No bots yet.</p> : null}
      <table class="settings-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Owner</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {bots.map((b) => (
            <tr key={b.user_id}>
              <td>{b.full_name}</td>
              <td>{b.email}</td>
              <td>{s.users.get(Number(b.bot_owner_id))?.full_name ?? ""}</td>
              <td>{b.is_active ? "Active" : "Deactivated"}</td>
              <td>
                {/* Keyed by the state: a note about the last change goes once the bot's state changes again. */}
                <ActiveButton key={String(b.is_active)} bot={{ user_id: b.user_id, full_name: b.full_name, is_active: b.is_active }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
