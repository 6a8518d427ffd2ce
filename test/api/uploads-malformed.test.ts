import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error } from "../harness/client.js";
import { send } from "../harness/fuzz.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe("POST /user_uploads with a broken multipart body", () => {
  it.each([
    ["no boundary", "multipart/form-data", "x"],
    ["a body that ends inside a part", "multipart/form-data; boundary=b", '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated'],
  ])("%s is a 400 envelope, never a 500", async (_name, type, body) => {
    const authorization = "Basic " + Buffer.from(`${server.users.hamlet.delivery_email}:${server.users.hamlet.api_key}`).toString("base64");
    const answer = await send(server.url, { method: "POST", path: "/api/v1/user_uploads", headers: { "content-type": type, authorization }, body: Buffer.from(body) });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual(error("Malformed multipart body"));
  });

  it("a body that ends inside a part is a 400 even when the realm must first be read from the database (a cold cache)", async () => {
    for (const app of server.apps) app.ctx.realms.forgetAll();
    const authorization = "Basic " + Buffer.from(`${server.users.hamlet.delivery_email}:${server.users.hamlet.api_key}`).toString("base64");
    const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated');
    const answer = await send(server.url, { method: "POST", path: "/api/v1/user_uploads", headers: { "content-type": "multipart/form-data; boundary=b", authorization }, body });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual(error("Malformed multipart body"));
  });
});
