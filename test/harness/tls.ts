import { execFile } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import http from "node:http";
import path from "node:path";
import { promisify } from "node:util";

/** A self-signed certificate for 127.0.0.1 and localhost, made by the openssl command. */
export interface TestCertificate {
  certFile: string;
  keyFile: string;
  /** The certificate in PEM: clients trust it as their only authority. */
  cert: string;
}

/** Makes a new key and self-signed certificate in `dir` (files `<name>.crt`, `<name>.key`); `cn` names it. */
export async function makeCertificate(dir: string, name: string, cn = "rookery-test"): Promise<TestCertificate> {
  const certFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  await promisify(execFile)("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", keyFile, "-out", certFile, "-days", "2", "-subj", `/CN=${cn}`,
    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
  ]);
  return { certFile, keyFile, cert: fs.readFileSync(certFile, "utf8") };
}

/** What one request over node:http(s) got back, and the certificate the server showed (https). */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  peerCertificate?: string;
}

/**
 * One request with node:http or node:https, for what fetch cannot choose: the local address the
 * connection comes from (`localAddress`, any of 127.0.0.0/8) and the authority trusted (`ca`).
 */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string; ca?: string } = {}): Promise<RawResponse> {
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      { method: options.method ?? "GET", headers: options.headers, localAddress: options.localAddress, ca: options.ca, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        const socket = response.socket as { getPeerCertificate?: () => { subject?: { CN?: string } } };
        const peerCertificate = socket.getPeerCertificate?.().subject?.CN;
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString(), peerCertificate }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}
