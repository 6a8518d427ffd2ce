import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createChannels, sendDirect, sendStream } from "./messages-fixtures.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

const submessagesOf = async (who: FixtureName, id: number) => (await server.as(who).get(`/messages/${id}`)).body.message.submessages;
const post = (who: FixtureName, params: Record<string, Json>) => server.as(who).post("/submessage", params);
const pollContent = (question: string, options: string[]) => `{"widget_type": "poll", "extra_data": {"question": ${JSON.stringify(question)}, "options": [${options.map((o) => JSON.stringify(o)).join(", ")}]}}`;
const queueOf = async (who: FixtureName) => (await server.as(who).post("/register", { event_types: ["submessage"], fetch_event_types: [] })).body.queue_id as string;
const eventsOf = async (who: FixtureName, queueId: string) => (await server.as(who).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events;

describe("widgets made on send", () => {
  it("a /poll message carries a widget submessage from its sender; its HTML is the ordinary rendering", async () => {
    const content = "/poll Lunch?\n- Pizza\n* Sushi\n\n  Salad";
    const id = await sendStream(server, "hamlet", "Verona", "food", content);
    const got = (await server.as("othello").get(`/messages/${id}`)).body.message;
    const submessage = got.submessages[0];
    expect(got.submessages).toEqual([{ id: submessage.id, message_id: id, sender_id: server.users.hamlet.id, msg_type: "widget", content: pollContent("Lunch?", ["Pizza", "Sushi", "Salad"]) }]);
    expect(got.content).toBe((await server.as("hamlet").post("/messages/render", { content })).body.rendered);
    const fetched = await server.as("othello").get("/messages", { anchor: id, num_before: 0, num_after: 0 });
    expect(fetched.body.messages[0].submessages).toEqual(got.submessages);
  });

  it("a /todo message presets its title and tasks, a description after the first ': '", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "chores", "/todo Weekend  \nGroceries: milk: 2 litres\nLaundry:soon\n- Call mum");
    expect((await submessagesOf("hamlet", id))[0].content).toBe(
      '{"widget_type": "todo", "extra_data": {"task_list_title": "Weekend", "tasks": [{"task": "Groceries", "desc": "milk: 2 litres"}, {"task": "Laundry:soon", "desc": ""}, {"task": "Call mum", "desc": ""}]}}',
    );
  });

  it("written as Zulip's JSON: non-ASCII escaped, the question empty when the command stands alone", async () => {
    const id = await sendDirect(server, "othello", ["cordelia"], '/poll\nCafé "Ø"\nTea');
    expect((await submessagesOf("cordelia", id))[0].content).toBe('{"widget_type": "poll", "extra_data": {"question": "", "options": ["Caf\\u00e9 \\"\\u00d8\\"", "Tea"]}}');
  });

  it.each(["hello /poll", "/polls are open", " /poll indented", "/Poll capitalised"])("%j is an ordinary message", async (content) => {
    const id = await sendStream(server, "hamlet", "Verona", "plain", content);
    expect(await submessagesOf("hamlet", id)).toEqual([]);
  });

  it("a widget's content cannot be edited, its topic can", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "frozen", "/poll Which?\nA\nB");
    const res = await server.as("hamlet").patch(`/messages/${id}`, { content: "/poll Which?\nA\nB\nC" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Widgets cannot be edited."));
    expect((await server.as("hamlet").patch(`/messages/${id}`, { topic: "thawed" })).body).toEqual(success({ detached_uploads: [] }));
  });
});

describe("POST /submessage", () => {
  it("adds a vote to a poll, announced to those holding the message; later fetches list it after the widget", async () => {
    const id = await sendStream(server, "iago", "Denmark", "vote", "/poll Colour?\nRed\nBlue");
    const [hamlet, othello] = [await queueOf("hamlet"), await queueOf("othello")];
    const vote = '{"type":"vote","key":"canned,1","vote":1}';
    const res = await post("othello", { message_id: id, msg_type: "widget", content: vote });
    expect(res.body).toEqual(success());
    const all = await submessagesOf("iago", id);
    expect(all).toHaveLength(2);
    expect(all[1]).toEqual({ id: all[1].id, message_id: id, sender_id: server.users.othello.id, msg_type: "widget", content: vote });
    expect(all[1].id).toBeGreaterThan(all[0].id);
    const events = await eventsOf("hamlet", hamlet);
    expect(events).toEqual([{ type: "submessage", msg_type: "widget", message_id: id, submessage_id: all[1].id, sender_id: server.users.othello.id, content: vote, id: 0 }]);
    // Othello is not subscribed to Denmark: he may vote on its public history, but holds no row for it.
    expect(await eventsOf("othello", othello)).toEqual([]);
  });

  it("the first submessage must come from the message's sender; then anyone who can read it may add one", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "custom", "no widget here");
    const refused = await post("othello", { message_id: id, msg_type: "widget", content: "{}" });
    expect(refused.body).toEqual(error("You cannot attach a submessage to this message."));
    // Without a poll or to-do widget any JSON goes, under any msg_type.
    expect((await post("hamlet", { message_id: id, msg_type: "custom", content: '["anything", 1]' })).body).toEqual(success());
    expect((await post("othello", { message_id: id, msg_type: "other", content: "42" })).body).toEqual(success());
    expect((await submessagesOf("hamlet", id)).map((s: Json) => [s.msg_type, s.content])).toEqual([
      ["custom", '["anything", 1]'],
      ["other", "42"],
    ]);
  });

  it("only those who can read the message", async () => {
    const id = await sendStream(server, "hamlet", "vault", "private", "/poll Secret?");
    expect((await post("othello", { message_id: id, msg_type: "widget", content: '{"type":"vote","key":"x","vote":1}' })).body).toEqual(error("Invalid message(s)"));
    expect((await post("polonius", { message_id: 999999, msg_type: "widget", content: "{}" })).body).toEqual(error("Invalid message(s)"));
    const dm = await sendDirect(server, "hamlet", ["cordelia"], "/poll Between us?");
    expect((await post("othello", { message_id: dm, msg_type: "widget", content: '{"type":"vote","key":"x","vote":1}' })).body).toEqual(error("Invalid message(s)"));
    expect((await post("cordelia", { message_id: dm, msg_type: "widget", content: '{"type":"vote","key":"x","vote":-1}' })).body).toEqual(success());
  });

  it.each([
    [{ msg_type: "widget", content: "{}" }, error("Missing 'message_id' argument", "REQUEST_VARIABLE_MISSING", { var_name: "message_id" })],
    [{ message_id: "1.5", msg_type: "widget", content: "{}" }, error("message_id is not an integer")],
    [{ message_id: 1, content: "{}" }, error("Missing 'msg_type' argument", "REQUEST_VARIABLE_MISSING", { var_name: "msg_type" })],
    [{ message_id: 1, msg_type: "widget" }, error("Missing 'content' argument", "REQUEST_VARIABLE_MISSING", { var_name: "content" })],
  ])("refuses %j", async (params, expected) => {
    const res = await post("hamlet", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });
});

describe("POST /submessage on a poll", () => {
  let poll: number;
  beforeAll(async () => {
    poll = await sendStream(server, "hamlet", "Verona", "checked", "/poll Checked?\nYes");
  });

  it.each([
    ["not json", "Invalid json for submessage"],
    ["[1]", "poll data is not a dict"],
    ["{}", "type key is missing from poll data"],
    ['{"type": 3}', 'poll data["type"] is not a string'],
    ['{"type": "vote", "key": "1,1"}', "vote key is missing from poll data"],
    ['{"type": "vote", "key": 7, "vote": 1}', 'poll data["key"] is not a string'],
    ['{"type": "vote", "key": "1,1", "vote": 2}', 'Invalid poll data["vote"]'],
    ['{"type": "vote", "key": "1,1", "vote": "1"}', 'poll data["vote"] is not an integer'],
    ['{"type": "vote", "key": "1,1", "vote": 1, "extra": 0}', "Unexpected arguments: extra"],
    ['{"type": "new_option", "option": "Maybe", "idx": 1001}', 'poll data["idx"] is too large'],
    ['{"type": "new_option", "option": "Maybe", "idx": -1}', 'poll data["idx"] is too small'],
    ['{"type": "question", "question": "Mine now?"}', "You can't edit a question unless you are the author."],
    ['{"type": "close"}', "Unknown type for poll data: close"],
  ])("a reader sending %s: %s", async (content, msg) => {
    const res = await post("othello", { message_id: poll, msg_type: "widget", content });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("the author may change the question; readers may add options", async () => {
    expect((await post("hamlet", { message_id: poll, msg_type: "widget", content: '{"type": "question", "question": "Really checked?"}' })).body).toEqual(success());
    expect((await post("othello", { message_id: poll, msg_type: "widget", content: '{"type": "new_option", "option": "No", "idx": 1000}' })).body).toEqual(success());
  });
});

describe("POST /submessage on a to-do list", () => {
  let todo: number;
  beforeAll(async () => {
    todo = await sendStream(server, "hamlet", "Verona", "tasks", "/todo Sprint");
  });

  it.each([
    ['{"type": "new_task", "key": 0, "task": "Ship", "desc": "", "completed": "no"}', 'todo data["completed"] is not a boolean'],
    ['{"type": "new_task", "key": "0", "task": "Ship", "desc": "", "completed": false}', 'todo data["key"] is not an integer'],
    ['{"type": "new_task", "key": 0, "task": "Ship", "completed": false}', "desc key is missing from todo data"],
    ['{"type": "strike", "key": 5}', 'todo data["key"] is not a string'],
    ['{"type": "new_task_list_title", "title": "Mine"}', "You can't edit the task list title unless you are the author."],
    ['{"type": "vote"}', "Unknown type for todo data: vote"],
  ])("a reader sending %s: %s", async (content, msg) => {
    expect((await post("cordelia", { message_id: todo, msg_type: "widget", content })).body).toEqual(error(msg));
  });

  it("readers add and strike tasks; the author renames the list", async () => {
    expect((await post("cordelia", { message_id: todo, msg_type: "widget", content: '{"type": "new_task", "key": 0, "task": "Ship", "desc": "", "completed": false}' })).body).toEqual(success());
    expect((await post("othello", { message_id: todo, msg_type: "widget", content: '{"type": "strike", "key": "0,5"}' })).body).toEqual(success());
    expect((await post("hamlet", { message_id: todo, msg_type: "widget", content: '{"type": "new_task_list_title", "title": "Sprint 2"}' })).body).toEqual(success());
    expect(await submessagesOf("hamlet", todo)).toHaveLength(4);
  });

  it("deleting the message deletes its submessages", async () => {
    expect((await server.as("iago").delete(`/messages/${todo}`)).body).toEqual(success());
    const left = await server.app.ctx.db.selectFrom("submessage").select("id").where("message_id", "=", todo).execute();
    expect(left).toEqual([]);
  });
});
