import { useState } from "preact/hooks";
import { subscribe, unsubscribe } from "../api/messages.js";
import { termsToHash } from "../state/narrow.js";
import { state } from "../state/store.js";

/** Find, join, leave and create channels. */
export function ChannelBrowser() {
  const s = state.value;
  const [filter, setFilter] = useState("");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [priv, setPriv] = useState(false);
  const [error, setError] = useState("");
  if (!s) return null;
  const q = filter.trim().toLowerCase();
  const streams = [...s.streams.values()].filter((c) => q === "" || c.name.toLowerCase().includes(q) || c.description.toLowerCase().includes(q)).sort((a, b) => a.name.localeCompare(b.name));
  const create = async (e: Event) => {
    e.preventDefault();
    setError("");
    try {
      await subscribe([name.trim()], { description, invite_only: priv });
      setName("");
      setDescription("");
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <section class="list-view channel-browser" aria-label="Channel browser">
      <header class="narrow-header">
        <h1>Channels</h1>
      </header>
      <div class="scroller">
        <input type="search" class="filter" placeholder="Filter channels" aria-label="Filter channels" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        <ul class="channel-list">
          {streams.map((c) => {
            const subscribed = s.subs.has(c.stream_id);
            return (
              <li key={c.stream_id}>
                <a href={termsToHash([{ operator: "channel", operand: String(c.stream_id) }], s)} class="name">
                  {c.invite_only ? "🔒 " : "# "}
                  {c.name}
                </a>
                <span class="description">{c.description}</span>
                <button type="button" onClick={() => void (subscribed ? unsubscribe([c.name]) : subscribe([c.name])).catch((err: Error) => setError(err.message))}>
                  {subscribed ? "Leave" : "Join"}
                </button>
              </li>
            );
          })}
        </ul>
        <form class="create-channel" onSubmit={create}>
          <h2>Create a channel</h2>
          <label>
            Name <input required maxLength={60} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            Description <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          </label>
          <label class="check">
            <input type="checkbox" checked={priv} onChange={(e) => setPriv(e.currentTarget.checked)} /> Private
          </label>
          <button type="submit">Create</button>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
        </form>
      </div>
    </section>
  );
}
