/** Pipe tables, as Python-Markdown's tables extension reads them. */
import type { BlockProcessor } from "./parser.js";
import { element, type BlockElement } from "./tree.js";

// A trailing pipe that is not escaped by a backslash.
const endBorder = /(?<!\\)(?:\\\\)*\|$/;

interface Shape {
  border: boolean;
  separator: string[];
}

function stripSpaces(s: string): string {
  return s.replace(/^ +| +$/g, "");
}

// Pipes inside code spans (matched backtick runs) do not split cells.
function splitCells(row: string): string[] {
  const tokens = /(\\\\)|(\\`+)|(`+)|(\\\|)|(\|)/g;
  const ticks: { size: number; start: number; end: number }[] = [];
  const pipes: number[] = [];
  for (const m of row.matchAll(tokens)) {
    const at = m.index;
    if (m[2] !== undefined) ticks.push({ size: m[2].length - 1, start: at, end: at + m[2].length - 1 });
    else if (m[3] !== undefined) ticks.push({ size: m[3].length, start: at, end: at + m[3].length - 1 });
    else if (m[5] !== undefined) pipes.push(at);
  }
  // For each backtick run, the next run of each size after it (found from the end, in one pass).
  const nextOfSize: (number | undefined)[] = [];
  const lastSeen = new Map<number, number>();
  for (let k = ticks.length - 1; k >= 0; k--) {
    nextOfSize[k] = undefined;
    const open = ticks[k];
    if (open === undefined) continue;
    // An escaped run (\``) opens a span one backtick shorter than itself.
    const size = open.size - (row[open.start] === "\\" ? 1 : 0);
    nextOfSize[k] = size > 0 ? lastSeen.get(size) : undefined;
    lastSeen.set(open.size, k);
  }
  const regions: [number, number][] = [];
  for (let pos = 0; pos < ticks.length; ) {
    const close = nextOfSize[pos];
    const open = ticks[pos];
    const closing = close === undefined ? undefined : ticks[close];
    if (open !== undefined && close !== undefined && closing !== undefined) {
      regions.push([open.start, closing.end]);
      pos = close + 1;
    } else pos++;
  }
  const cells: string[] = [];
  let from = 0;
  let region = 0;
  for (const pipe of pipes) {
    while (region < regions.length && (regions[region]?.[1] ?? 0) < pipe) region++;
    const [a = Infinity, b = -Infinity] = regions[region] ?? [];
    if (a <= pipe && pipe <= b) continue;
    cells.push(row.slice(from, pipe));
    from = pipe + 1;
  }
  cells.push(row.slice(from));
  return cells;
}

function splitRow(row: string, border: boolean): string[] {
  if (!border) return splitCells(row);
  const inner = (row.startsWith("|") ? row.slice(1) : row).replace(endBorder, "");
  return splitCells(inner);
}

// A header row and a separator row with the same number of cells make a table.
function tableShape(block: string): Shape | null {
  const rows = block.split("\n").map(stripSpaces);
  const header = rows[0];
  const second = rows[1];
  if (header === undefined || second === undefined) return null;
  const border = header.startsWith("|") || endBorder.test(header);
  const width = splitRow(header, border).length;
  let isTable = width > 1;
  if (!isTable && width === 1 && border) {
    for (let i = 1; i < rows.length; i++) {
      const row = rows[i] ?? "";
      isTable = row.startsWith("|") || endBorder.test(row);
      if (!isTable) break;
    }
  }
  if (!isTable) return null;
  const separator = splitRow(second, border);
  if (separator.length !== width || !/^[|:\- ]*$/.test(separator.join(""))) return null;
  return { border, separator };
}

function alignOf(cell: string): string | null {
  const c = stripSpaces(cell);
  if (c.startsWith(":") && c.endsWith(":")) return "center";
  if (c.startsWith(":")) return "left";
  if (c.endsWith(":")) return "right";
  return null;
}

function addRow(parent: BlockElement, tag: "th" | "td", row: string, shape: Shape, align: (string | null)[]): void {
  const tr = element("tr", parent);
  const cells = splitRow(row, shape.border);
  align.forEach((a, i) => {
    const cell = element(tag, tr, stripSpaces(cells[i] ?? ""));
    if (a !== null) cell.attrs.push(["style", `text-align: ${a};`]);
  });
}

/** A table: header row, separator row, body rows. */
export const tableProcessor: BlockProcessor = {
  test: (_p, _parent, block) => block.includes("|") && tableShape(block) !== null,
  run(_p, parent, queue) {
    const block = queue.pop() ?? "";
    const shape = tableShape(block);
    if (!shape) return;
    const lines = block.split("\n");
    const align = shape.separator.map(alignOf);
    const table = element("table", parent);
    addRow(element("thead", table), "th", stripSpaces(lines[0] ?? ""), shape, align);
    const body = element("tbody", table);
    const rows = lines.slice(2);
    if (rows.length === 0) {
      const tr = element("tr", body);
      for (let i = 0; i < align.length; i++) element("td", tr);
    }
    for (const row of rows) addRow(body, "td", stripSpaces(row), shape, align);
  },
};
