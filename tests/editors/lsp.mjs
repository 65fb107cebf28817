// A small Language Server Protocol client for the editor tests: starts a
// server as a child process and speaks JSON-RPC 2.0 to it over stdio, each
// message framed by a Content-Length header. Every wait has a deadline, so a
// server that hangs fails the test with what it was waiting for.

import { spawn } from "node:child_process";

export function frame(message) {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "ascii"), body]);
}

// Splits a byte stream into messages; returns the bytes not yet complete.
export function unframe(buffer, onMessage) {
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return buffer;
    const header = buffer.subarray(0, end).toString("ascii");
    const length = /^Content-Length: *(\d+)$/im.exec(header);
    if (!length) throw new Error(`a header without Content-Length: ${JSON.stringify(header)}`);
    const start = end + 4;
    if (buffer.length < start + Number(length[1])) return buffer;
    onMessage(JSON.parse(buffer.subarray(start, start + Number(length[1])).toString("utf8")));
    buffer = buffer.subarray(start + Number(length[1]));
  }
}

export function deadline(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class LspClient {
  // `answer(method, params)` gives the result of a request from the server
  // (workspace/configuration and the like); unknown ones get null.
  constructor(command, args, { answer = () => null, timeout = 20000, cwd, env } = {}) {
    this.timeout = timeout;
    this.answer = answer;
    this.nextId = 1;
    this.pending = new Map();
    this.waiters = [];
    this.notifications = [];
    this.stderr = "";
    this.child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let buffer = Buffer.alloc(0);
    this.child.stdout.on("data", (chunk) => {
      buffer = unframe(Buffer.concat([buffer, chunk]), (message) => this.#receive(message));
    });
    this.child.stderr.on("data", (chunk) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve({ code, signal })));
    this.child.on("error", (error) => this.#failAll(error));
    this.exited.then(({ code, signal }) => this.#failAll(new Error(`the server exited (${code ?? signal}) ${this.stderr}`)));
  }

  #failAll(error) {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters = [];
  }

  #send(message) {
    this.child.stdin.write(frame({ jsonrpc: "2.0", ...message }));
  }

  async #receive(message) {
    if (message.id !== undefined && message.method === undefined) {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) pending?.reject(new Error(`${pending.method}: ${JSON.stringify(message.error)}`));
      else pending?.resolve(message.result);
    } else if (message.id !== undefined) {
      try {
        this.#send({ id: message.id, result: (await this.answer(message.method, message.params)) ?? null });
      } catch (error) {
        this.#send({ id: message.id, error: { code: -32603, message: String(error) } });
      }
    } else {
      this.notifications.push(message);
      const waiting = [];
      for (const waiter of this.waiters) {
        if (waiter.match(message)) waiter.resolve(message);
        else waiting.push(waiter);
      }
      this.waiters = waiting;
    }
  }

  request(method, params) {
    const id = this.nextId++;
    const answered = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, method }));
    this.#send({ id, method, params });
    return deadline(answered, this.timeout, `the answer to ${method}`);
  }

  notify(method, params) {
    this.#send({ method, params });
  }

  // The first notification, from now on, that `match` accepts.
  next(what, match) {
    const seen = new Promise((resolve, reject) => this.waiters.push({ match, resolve, reject }));
    return deadline(seen, this.timeout, what);
  }

  async shutdown() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    try {
      await this.request("shutdown", null);
      this.notify("exit", null);
      await deadline(this.exited, this.timeout, "the server to exit");
    } finally {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
    }
  }
}
