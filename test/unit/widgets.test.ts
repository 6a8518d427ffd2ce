import { describe, expect, it } from "vitest";
import { widgetOf, widgetSubmessageContent } from "../../src/lib/messages/widgets/parse.js";

const content = (text: string) => {
  const widget = widgetOf(text);
  return widget ? widgetSubmessageContent(widget) : undefined;
};

describe("widgetOf and the widget submessage", () => {
  it.each([
    ["/poll", '{"widget_type": "poll", "extra_data": {"question": "", "options": []}}'],
    ["/poll What now?", '{"widget_type": "poll", "extra_data": {"question": "What now?", "options": []}}'],
    ["/poll  Spaced  \n  - one \n\n*two\n-   three", '{"widget_type": "poll", "extra_data": {"question": "Spaced", "options": ["one", "two", "three"]}}'],
    // A bare command line keeps its place as an (empty) first line: the next line is an option, not the question.
    ["/poll\nfirst\nsecond", '{"widget_type": "poll", "extra_data": {"question": "", "options": ["first", "second"]}}'],
    ["/poll \nfirst", '{"widget_type": "poll", "extra_data": {"question": "", "options": ["first"]}}'],
    ["/poll\tTabbed\r\nA\rB", '{"widget_type": "poll", "extra_data": {"question": "Tabbed", "options": ["A", "B"]}}'],
    ["/poll -- dash\n--double", '{"widget_type": "poll", "extra_data": {"question": "-- dash", "options": ["-double"]}}'],
    ["/todo", '{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": []}}'],
    [
      "/todo Plans\nBuy: milk: 2\nCall:later\n* Rest  ",
      '{"widget_type": "todo", "extra_data": {"task_list_title": "Plans", "tasks": [{"task": "Buy", "desc": "milk: 2"}, {"task": "Call:later", "desc": ""}, {"task": "Rest", "desc": ""}]}}',
    ],
    ['/poll Ünïcode "quotes" \\ back\u007f', '{"widget_type": "poll", "extra_data": {"question": "\\u00dcn\\u00efcode \\"quotes\\" \\\\ back\\u007f", "options": []}}'],
    // Python's whitespace, no-break space included, ends the command.
    ["/poll\u00a0x", '{"widget_type": "poll", "extra_data": {"question": "x", "options": []}}'],
    ["/poll 🎉", '{"widget_type": "poll", "extra_data": {"question": "\\ud83c\\udf89", "options": []}}'],
  ])("%j", (text, expected) => {
    expect(content(text)).toBe(expected);
  });

  it.each(["", "poll", "/pol", "/polls", "/todos x", " /poll", "\n/poll", "x /poll", "/POLL"])("%j has no widget", (text) => {
    expect(widgetOf(text)).toBeUndefined();
  });
});
