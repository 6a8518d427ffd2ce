import { SYMBOLS } from "./symbols.js";
import { PICTOGRAPHS_A } from "./pictographs-a.js";
import { PICTOGRAPHS_B } from "./pictographs-b.js";
import { FACES_TRANSPORT } from "./faces-transport.js";
import { SUPPLEMENTAL } from "./supplemental.js";

/**
 * Zulip 9.0's names for unicode emoji: one line per emoji, its code (lower-case hex code points
 * joined by "-", U+FE0F removed, as Zulip's get_emoji_code makes them) then its canonical name
 * then its aliases.
 *
 * Source of the facts: Zulip's own name table (tools/setup/emoji/emoji_names.py, EMOJI_NAME_MAPS),
 * as Zulip's servers published it in 2023 (the snapshot zulip-terminal synchronises from the
 * server). Zulip's table is hand-curated: it renames many emoji (🎄 is holiday_tree, 🙂 is smile),
 * leaves some out (clock faces, fried_egg, most families) and names some ZWJ sequences.
 * Emoji 15.0 additions, which Zulip named after the iamcal dataset, are added from
 * emoji-datasource at load time (see emoji-data.ts).
 */
export const zulipEmojiNames = [SYMBOLS, PICTOGRAPHS_A, PICTOGRAPHS_B, FACES_TRANSPORT, SUPPLEMENTAL].join("");
