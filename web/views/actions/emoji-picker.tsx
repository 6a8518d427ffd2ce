/** The emoji picker (a lazily loaded chunk): the realm's custom emoji, then the server's Unicode emoji, searchable. */
import { useEffect, useMemo, useState } from "preact/hooks";
import { loadUnicodeEmoji, type EmojiEntry } from "../../api/emoji.js";
import { current } from "../../state/store.js";
import { emojiChar } from "../format.js";
import { openDialog } from "../overlay.js";

export type Picked = { emoji_name: string; emoji_code: string; reaction_type: string };

/** Shown when nothing is typed: a short row of the usual ones. */
const POPULAR = ["+1", "tada", "smile", "heart", "working_on_it", "octopus"];
const SHOWN = 400;

export function openPicker(onPick: (e: Picked) => void): void {
  openDialog("Add emoji reaction", () => <Picker onPick={onPick} />);
}

function Picker({ onPick }: { onPick: (e: Picked) => void }) {
  const [unicode, setUnicode] = useState<EmojiEntry[]>([]);
  const [query, setQuery] = useState("");
  const [error, setError] = useState("");
  const s = current();
  useEffect(() => {
    loadUnicodeEmoji(s.realm.server_emoji_data_url).then(setUnicode, () => setError("Could not load the emoji list"));
  }, []);
  const all = useMemo(() => {
    const custom = Object.entries(s.realmEmoji)
      .filter(([, e]) => e.deactivated !== true)
      .map(([id, e]) => ({ name: String(e.name), aliases: [String(e.name)], code: id, url: String(e.source_url) }));
    const popular = POPULAR.map((n) => unicode.find((u) => u.aliases.includes(n))).filter((u): u is EmojiEntry => u !== undefined);
    return [...custom, ...popular, ...unicode.filter((u) => !popular.includes(u))] as (EmojiEntry & { url?: string })[];
  }, [unicode, s.realmEmoji]);
  const q = query.trim().toLowerCase().replace(/^:|:$/g, "");
  const shown = (q === "" ? all : all.filter((e) => e.aliases.some((a) => a.includes(q)))).slice(0, SHOWN);
  const pick = (e: EmojiEntry & { url?: string }) => onPick({ emoji_name: e.name, emoji_code: e.code, reaction_type: e.url ? "realm_emoji" : "unicode_emoji" });
  return (
    <div class="emoji-picker">
      <input
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query}
        autoFocus
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          const first = shown[0];
          if (e.key === "Enter" && first) {
            e.preventDefault();
            pick(first);
          }
        }}
      />
      {error && <p class="compose-error">{error}</p>}
      <div class="emoji-grid" role="listbox" aria-label="Emoji">
        {shown.map((e) => (
          <button type="button" role="option" aria-selected={false} key={e.code} title={`:${e.name}:`} aria-label={`:${e.name}:`} onClick={() => pick(e)}>
            {e.url ? <img src={e.url} alt="" width={24} height={24} /> : emojiChar(e.code)}
          </button>
        ))}
        {unicode.length === 0 && !error && <span role="status">Loading…</span>}
      </div>
    </div>
  );
}
