import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

// Requests that fail below the endpoints (HTTP parsing, URL decoding, body reading) still answer
// in Zulip's envelope, never with a 500 or Fastify's own {"error","message","statusCode"} body.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const basic = (who: "hamlet" | "iago") => {
  const user = server.users[who];
  return "Basic " + Buffer.from(`${user.delivery_email}:${user.api_key}`).toString("base64");
};

/** One parsed HTTP/1.1 answer read off a raw socket. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Writes `chunks` on one socket to a process itself (not a balancer, which would answer malformed HTTP on its own), in turn, and reads answers until the server closes it. */
function exchange(chunks: string[]): Promise<{ answers: RawAnswer[]; closedByServer: boolean }> {
  const { port } = new URL(server.processUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let received = "";
    let next = 0;
    const send = () => {
      if (next < chunks.length) socket.write(chunks[next++] ?? "");
    };
    socket.on("connect", send);
    socket.on("data", (data: Buffer) => {
      received += data.toString("latin1");
      // One answer per request: write the next once this one is whole.
      if (parseAnswers(received).length === next) send();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve({ answers: parseAnswers(received), closedByServer: true }));
    setTimeout(() => {
      socket.destroy();
      resolve({ answers: parseAnswers(received), closedByServer: false });
    }, 3000);
  });
}

function parseAnswers(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = text;
  while (rest.includes("\r\n\r\n")) {
    const [head = "", ...after] = rest.split("\r\n\r\n");
    const lines = head.split("\r\n");
    const headers = Object.fromEntries(lines.slice(1).map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
    const length = Number(headers["content-length"] ?? 0);
    const tail = after.join("\r\n\r\n");
    if (tail.length < length) break;
    answers.push({ status: Number(lines[0]?.split(" ")[1]), headers, body: JSON.parse(tail.slice(0, length)) });
    rest = tail.slice(length);
  }
  return answers;
}

const get = (path: string, extra = "") => `GET ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: ${basic("hamlet")}\r\n${extra}\r\n`;

describe("HTTP parsing", () => {
  it("answers a URL over 16 KiB with 431 in the envelope, saying Connection: close", async () => {
    const { answers, closedByServer } = await exchange([get(`/api/v1/users?x=${"a".repeat(20_000)}`)]);
    expect(answers).toEqual([
      {
        status: 431,
        headers: expect.objectContaining({ connection: "close", "content-type": "application/json" }),
        body: error("Request headers are larger than the allowed limit of 16 KiB"),
      },
    ]);
    expect(closedByServer).toBe(true);
  });

  it("tells a keep-alive client that the connection ends after the 431", async () => {
    const { answers, closedByServer } = await exchange([get("/api/v1/users/me"), get(`/api/v1/users/me?x=${"a".repeat(20_000)}`)]);
    expect(answers.map((a) => [a.status, a.headers.connection])).toEqual([
      [200, "keep-alive"],
      [431, "close"],
    ]);
    expect(closedByServer).toBe(true);
  });

  it("answers a request Node cannot parse with 400 in the envelope", async () => {
    const { answers } = await exchange(["NOT AN HTTP REQUEST\r\n\r\n"]);
    expect(answers.map((a) => [a.status, a.headers.connection, a.body])).toEqual([[400, "close", error("Malformed HTTP request")]]);
  });
});

describe("URLs", () => {
  it("answers an undecodable path with 400 in the envelope", async () => {
    const res = await fetch(`${server.url}/api/v1/drafts/%FF`, { headers: { authorization: basic("hamlet") } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(error("Malformed URL"));
  });

  it("answers a path segment over 320 characters with 414 in the envelope", async () => {
    const res = await fetch(`${server.url}/api/v1/users/${"1".repeat(400)}`, { headers: { authorization: basic("hamlet") } });
    expect(res.status).toBe(414);
    expect(await res.json()).toEqual(error("URL path segment too long"));
  });

  it("looks up an email of 254 characters in /users/{email}", async () => {
    const email = `${"x".repeat(64)}@${"d".repeat(180)}.example.com`;
    const res = await server.as("hamlet").get(`/users/${email}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("No such user"));
  });

  it("treats an id too large to be stored as no such object", async () => {
    const res = await server.as("hamlet").get("/users/3000000000");
    expect(res.body).toEqual(error("No such user"));
    expect((await server.as("hamlet").get("/streams/99999999999")).body).toEqual(error("Invalid channel ID"));
  });
});

describe("bodies", () => {
  it("answers a body over the limit with 413 in the envelope, closing the connection", async () => {
    const head = `POST /api/v1/messages HTTP/1.1\r\nHost: test\r\nAuthorization: ${basic("hamlet")}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${40 * 1024 * 1024}\r\n\r\ntype=direct`;
    const { answers, closedByServer } = await exchange([head]);
    expect(answers.map((a) => [a.status, a.headers.connection, a.body])).toEqual([[413, "close", error("Request body is larger than the allowed limit of 32 MiB")]]);
    expect(closedByServer).toBe(true);
  });

  it("answers an unparseable Content-Type with 415 in the envelope", async () => {
    const res = await fetch(`${server.url}/api/v1/messages`, { method: "POST", headers: { authorization: basic("hamlet"), "content-type": ";;;" }, body: "x" });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual(error("Unsupported Content-Type"));
  });

  it("ignores a body of a type it does not read, nested JSON included", async () => {
    const nested = "[".repeat(100_000) + "]".repeat(100_000);
    const res = await fetch(`${server.url}/api/v1/users/me/alert_words`, { method: "POST", headers: { authorization: basic("hamlet"), "content-type": "application/json" }, body: nested });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(error("Missing 'alert_words' argument", "REQUEST_VARIABLE_MISSING", { var_name: "alert_words" }));
  });

});

describe("JSON parameters", () => {
  const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

  it("refuses nesting deeper than 1,024 levels as invalid JSON, as Zulip's parser does", async () => {
    const res = await server.as("hamlet").post("/users/me/alert_words", { alert_words: nested(100_000) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("alert_words is not valid JSON"));
    const retention = await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "Deep" }], message_retention_days: nested(1025) });
    expect(retention.body).toEqual(error("message_retention_days is not valid JSON"));
  });

  it("reads 1,024 levels", async () => {
    const res = await server.as("hamlet").post("/users/me/alert_words", { alert_words: nested(1024) });
    expect(res.body).toEqual(error("alert_words[0] is not a string"));
  });
});

describe("multipart bodies", () => {
  // A malformed body ends its connection: sent to a process itself, as a load balancer owns the
  // connection of its client (and answers it as it sees fit).
  const multipart = (who: "hamlet" | undefined, contentType: string, body: string) =>
    fetch(`${server.processUrl}/api/v1/messages`, {
      method: "POST",
      headers: { ...(who ? { authorization: basic(who) } : {}), "content-type": contentType },
      body,
    });

  it("authenticates before reading the body: a malformed one from nobody is a 401", async () => {
    const res = await multipart(undefined, "multipart/form-data", "x");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(error("Not logged in: API authentication or user session required", "UNAUTHORIZED"));
  });

  it.each([
    ["without a boundary", "multipart/form-data", "x"],
    ["cut short", "multipart/form-data; boundary=abc", '--abc\r\nContent-Disposition: form-data; name="type"\r\n\r\nstream'],
    ["not multipart at all", "multipart/form-data; boundary=abc", "x"],
  ])("answers a body %s with 400 in the envelope", async (_name, contentType, body) => {
    const res = await multipart("hamlet", contentType, body);
    expect(res.status).toBe(400);
    expect(res.headers.get("connection")).toBe("close");
    expect(await res.json()).toEqual(error("Malformed multipart body"));
  });

  it("still reads a well-formed multipart body, repeated fields by their last value", async () => {
    const form = new FormData();
    form.append("alert_words", '["first"]');
    form.append("alert_words", '["kept"]');
    const res = await fetch(`${server.url}/api/v1/users/me/alert_words`, { method: "POST", headers: { authorization: basic("iago") }, body: form });
    expect(await res.json()).toEqual({ result: "success", msg: "", alert_words: ["kept"] });
  });
});
