import { child, isObject, list, text, type SlackObject } from "./slack-export.js";

/**
 * The text of an app's message made of Block Kit blocks and legacy attachments, as Zulip's
 * converter writes it: headers as `## `, dividers as `----`, sections' text and fields, images
 * as links, attachments' title (linked), pretext, text, fields (`*title*: value`), image, footer
 * and time. "" when there is nothing of the kind (every message a person writes has a rich_text
 * block repeating its text: that block adds nothing).
 */
export function blocksAndAttachments(message: SlackObject): string {
  const pieces = [...objects(message, "blocks").map(block), ...objects(message, "attachments").map(attachment)];
  return joined(pieces, "\n");
}

function objects(object: SlackObject, key: string): SlackObject[] {
  return list(object, key).filter(isObject);
}

function joined(pieces: readonly string[], separator: string): string {
  return pieces
    .map((piece) => piece.trim())
    .filter((piece) => piece !== "")
    .join(separator);
}

function textOf(object: SlackObject): string {
  return text(child(object, "text"), "text") ?? "";
}

function image(element: SlackObject): string {
  const url = text(element, "image_url");
  if (url === undefined) return "";
  const title = text(child(element, "title"), "text");
  return `[${title ?? text(element, "alt_text") ?? ""}](${url})`;
}

function block(b: SlackObject): string {
  switch (text(b, "type")) {
    case "header":
      return `## ${textOf(b)}`;
    case "divider":
      return "----";
    case "image":
      return image(b);
    case "context":
      return joined(
        objects(b, "elements").map((e) => (text(e, "type") === "image" ? image(e) : (text(e, "text") ?? ""))),
        "\n\n",
      );
    case "section": {
      const fields = objects(b, "fields").map((f) => text(f, "text") ?? "");
      let table = "";
      if (fields.length === 1) table = fields[0] ?? "";
      else if (fields.length > 1) {
        const cells = fields.map((f) => f.replace(/\n/g, " ").replace(/\|/g, " "));
        table = "| | |\n|-|-|\n";
        for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i] ?? ""} | ${cells[i + 1] ?? ""} |\n`;
      }
      const accessory = child(b, "accessory");
      return joined([textOf(b), text(accessory, "type") === "image" ? image(accessory) : "", table], "\n\n");
    }
    default:
      return "";
  }
}

function attachment(a: SlackObject): string {
  const pieces: string[] = [];
  const title = text(a, "title");
  if (title) pieces.push(text(a, "title_link") ? `## [${title}](${text(a, "title_link") ?? ""})` : `## ${title}`);
  pieces.push(text(a, "pretext") ?? "", text(a, "text") ?? "");
  const fields = objects(a, "fields").map((f) => {
    const [fieldTitle, value] = [text(f, "title"), text(f, "value")];
    if (fieldTitle && value) return `*${fieldTitle}*: ${value}`;
    return fieldTitle ? `*${fieldTitle}*` : (value ?? "");
  });
  pieces.push(fields.filter((f) => f !== "").join("\n"));
  pieces.push(...objects(a, "blocks").map(block));
  const imageUrl = text(a, "image_url");
  if (imageUrl) pieces.push(`[](${imageUrl})`);
  pieces.push(text(a, "footer") ?? "");
  const ts = Math.floor(Number(a["ts"]));
  if (Number.isFinite(ts) && a["ts"] !== undefined) pieces.push(`<time:${new Date(ts * 1000).toISOString().replace(".000Z", "+00:00")}>`);
  return joined(pieces, "\n\n");
}
