import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { setRealmProps } from "./streams-helpers.js";
import { groupIdsByName } from "./user-groups-helpers.js";

let server: TestServer;
let groups: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  groups = await groupIdsByName(server);
});
afterAll(() => server.stop());

const DISABLED = "Direct messages are disabled in this organization.";
const UNAUTHORIZED = "This conversation does not include any users who can authorize it.";
const CANNOT_START = "You do not have permission to initiate direct message conversations.";

const dm = (from: FixtureName, to: FixtureName[]) =>
  server.as(from).post("/messages", { type: "direct", to: JSON.stringify(to.map((n) => server.users[n].id)), content: "hello" });

async function setGroups(permission: string, initiator: string): Promise<void> {
  await setRealmProps(server, { direct_message_permission_group: groups[permission] ?? 0, direct_message_initiator_group: groups[initiator] ?? 0 });
}

describe("POST /messages: direct_message_permission_group", () => {
  beforeEach(() => setGroups("role:everyone", "role:everyone"));

  it("by default (role:everyone) allows every conversation", async () => {
    expect((await dm("polonius", ["hamlet"])).body).toEqual(success({ id: expect.any(Number) }));
    expect((await dm("hamlet", ["othello", "polonius"])).status).toBe(200);
  });

  it("role:nobody disables direct messages, except from bots and to bots or oneself", async () => {
    await setGroups("role:nobody", "role:everyone");
    for (const who of ["hamlet", "desdemona"] as const) {
      const res = await dm(who, ["othello"]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error(DISABLED));
    }
    expect((await dm("hamlet", ["othello", "bot"])).body).toEqual(error(DISABLED));
    expect((await dm("hamlet", ["bot"])).status).toBe(200);
    expect((await dm("hamlet", ["hamlet"])).status).toBe(200);
    expect((await dm("hamlet", ["hamlet", "bot"])).status).toBe(200);
    expect((await dm("bot", ["othello", "cordelia"])).status).toBe(200);
  });

  it("otherwise needs someone in the conversation, sender or recipient, in the group (directly or through subgroups)", async () => {
    await setGroups("role:administrators", "role:everyone");
    expect((await dm("hamlet", ["othello"])).body).toEqual(error(UNAUTHORIZED));
    expect((await dm("shiva", ["hamlet", "polonius"])).body).toEqual(error(UNAUTHORIZED));
    expect((await dm("hamlet", ["iago"])).status).toBe(200);
    expect((await dm("iago", ["hamlet"])).status).toBe(200);
    // Owners are administrators through the role:owners subgroup.
    expect((await dm("hamlet", ["desdemona"])).status).toBe(200);
    expect((await dm("hamlet", ["othello", "desdemona"])).status).toBe(200);
  });
});

describe("POST /messages: direct_message_initiator_group", () => {
  beforeEach(() => setGroups("role:everyone", "role:moderators"));

  it("refuses a new conversation to senders outside the group", async () => {
    const res = await dm("cordelia", ["othello"]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(CANNOT_START));
    expect((await dm("cordelia", ["othello", "hamlet"])).body).toEqual(error(CANNOT_START));
    expect((await dm("polonius", ["othello"])).body).toEqual(error(CANNOT_START));
  });

  it("lets group members start conversations, and anyone continue one that has messages", async () => {
    expect((await dm("shiva", ["cordelia"])).status).toBe(200);
    expect((await dm("cordelia", ["shiva"])).status).toBe(200);
    expect((await dm("desdemona", ["cordelia", "othello"])).status).toBe(200);
    expect((await dm("othello", ["desdemona", "cordelia"])).status).toBe(200);
    // A conversation with more or fewer people is a different one.
    expect((await dm("othello", ["cordelia"])).body).toEqual(error(CANNOT_START));
  });

  it("counts a conversation's history from either side, and never limits bots, oneself or conversations with bots", async () => {
    await setGroups("role:everyone", "role:everyone");
    expect((await dm("othello", ["polonius"])).status).toBe(200);
    await setGroups("role:everyone", "role:nobody");
    expect((await dm("polonius", ["othello"])).status).toBe(200);
    expect((await dm("othello", ["polonius"])).status).toBe(200);
    expect((await dm("cordelia", ["polonius"])).body).toEqual(error(CANNOT_START));
    expect((await dm("hamlet", ["hamlet"])).status).toBe(200);
    expect((await dm("hamlet", ["bot"])).status).toBe(200);
    expect((await dm("bot", ["cordelia", "polonius"])).status).toBe(200);
  });

  it("checks the permission group first", async () => {
    await setGroups("role:administrators", "role:moderators");
    expect((await dm("hamlet", ["othello"])).body).toEqual(error(UNAUTHORIZED));
    expect((await dm("cordelia", ["iago"])).body).toEqual(error(CANNOT_START));
    expect((await dm("iago", ["cordelia"])).status).toBe(200);
    expect((await dm("cordelia", ["iago"])).status).toBe(200);
  });
});
