import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const raw = { validate: false };

describe("consistency of /register state and events: bots", () => {
  let botId = 0;

  it("creating a bot (POST /bots): realm_user add for everyone, realm_bot add for its owner and the administrators", async () => {
    for (const who of ["hamlet", "iago"] as const) {
      const events = await checkAction(
        server,
        who,
        async () => {
          const res = await server.as("hamlet").post("/bots", { full_name: `Yorick ${who}`, short_name: `yorick-${who}` }, raw);
          botId = res.body.user_id;
          return res;
        },
        { eventTypes: ["realm_user", "realm_bot"] },
      );
      expect(events.map((e) => `${String(e.type)}:${String(e.op)}`)).toEqual(["realm_user:add", "realm_bot:add"]);
    }
    const events = await checkAction(server, "othello", () => server.as("hamlet").post("/bots", { full_name: "Yorick othello", short_name: "yorick-othello" }, raw), {
      eventTypes: ["realm_user", "realm_bot"],
    });
    expect(events.map((e) => e.type)).toEqual(["realm_user"]);
  });

  it("a new API key (POST /bots/{id}/api_key/regenerate)", async () => {
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").post(`/bots/${botId}/api_key/regenerate`, {}, raw), { eventTypes: ["realm_bot"] });
    expect(events).toEqual([{ id: 0, type: "realm_bot", op: "update", bot: { user_id: botId, api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) } }]);
  });

  it("deactivating (DELETE /bots/{id}) and reactivating a bot", async () => {
    const off = await checkAction(server, "iago", () => server.as("hamlet").delete(`/bots/${botId}`, {}, raw), { eventTypes: ["realm_user", "realm_bot"] });
    expect(off.map((e) => [e.type, e.person ?? e.bot])).toEqual([
      ["realm_user", { user_id: botId, is_active: false }],
      ["realm_bot", { user_id: botId, is_active: false }],
    ]);
    await checkAction(server, "hamlet", () => server.as("iago").post(`/users/${botId}/reactivate`), { eventTypes: ["realm_user", "realm_bot"] });
  });
});
