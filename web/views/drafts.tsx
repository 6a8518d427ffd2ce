import { dmKeyIds, userName } from "../state/conversation.js";
import { state } from "../state/store.js";
import { deleteDraft } from "../api/compose.js";
import { restoreDraft } from "./compose/compose.js";

/** Saved drafts, newest first (compose, by webapp-b, restores and edits them). */
export function Drafts() {
  const s = state.value;
  if (!s) return null;
  const drafts = [...s.drafts.values()].sort((a, b) => b.timestamp - a.timestamp);
  return (
    <section class="list-view drafts" aria-label="Drafts">
      <header class="narrow-header">
        <h1>Drafts</h1>
      </header>
      <div class="scroller">
        {drafts.length === 0 && <p class="empty">No drafts.</p>}
        <ul class="draft-list">
          {drafts.map((d) => (
            <li key={d.id} class="draft" data-draft-id={d.id} tabIndex={0}>
              <div class="to">{d.type === "stream" ? `# ${s.streams.get(d.to[0] ?? 0)?.name ?? "?"} › ${d.topic}` : d.type === "private" ? `To ${dmKeyIds(d.to.join(",")).map((id) => userName(s, id)).join(", ")}` : "No recipient"}</div>
              <div class="text">{d.content}</div>
              <div class="draft-actions">
                <button type="button" class="link" onClick={() => restoreDraft(d)}>
                  Restore
                </button>
                <button type="button" class="link danger" onClick={() => void deleteDraft(d.id).catch(() => undefined)}>
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
