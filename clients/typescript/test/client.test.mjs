// The package against the real signup-rpc ($SIGNUP_RPC_BINARY, else the debug build), from its
// built dist/: over stdio in virtual time with the exact events in order, over --listen on a
// unix socket, cancellation by AbortSignal, and the form store.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn as spawnProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { FormStore, RPCError } from "../dist/index.js";
import { spawn, connect } from "../dist/node.js";

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.env.SIGNUP_RPC_BINARY ?? join(here, "..", "..", "..", ".build", "debug", "signup-rpc");

test("a sign-up in virtual time over stdio gives exactly its events, and the store follows them", async () => {
  const client = spawn(binary, ["--clock", "virtual"]);
  const info = await client.initialize();
  assert.equal(info.serverInfo.name, "signup-rpc");
  const form = await client.open("signup", { form: "f", at: 0 });
  const store = new FormStore(form);
  await form.edit("username", "newbie", { at: 10 });
  await form.edit("password", "hunter22", { at: 20 });
  await form.edit("repeatedPassword", "hunter22", { at: 30 });
  assert.equal(await client.advanceClock({ to: 1000 }), 1000);
  const submitted = await form.submit({ at: 1000 });
  assert.deepEqual(submitted, { form: "f", accepted: true });
  await client.advanceClock({ to: 3000 });
  await form.close();
  const seen = [];
  for await (const event of form.events()) seen.push(event);
  assert.deepEqual(seen, []);  // the store took every event as it came
  const state = store.getSnapshot();
  assert.deepEqual(Object.fromEntries(Object.entries(state.fields).map(([name, field]) => [name, `${field.state} ${field.code}`])), {
    username: "ok username.available", password: "ok password.acceptable", repeatedPassword: "ok repeatedPassword.matches",
  });
  assert.equal(state.submission?.state, "succeeded");
  assert.deepEqual(state.submission?.account, { username: "newbie" });
  client.close();
});

test("events come as an async iterator, in order", async () => {
  const client = spawn(binary, ["--clock", "virtual"]);
  const form = await client.open("signup", { form: "g", at: 0 });
  await form.edit("username", "a b", { at: 5 });
  const events = form.events();
  const lines = [];
  for (let index = 0; index < 5; index++) {
    const { value } = await events.next();
    lines.push(value.type === "fieldChanged" ? `${value.params.field} ${value.params.code}` : `${value.type}`);
  }
  assert.deepEqual(lines, ["username username.empty", "password password.empty", "repeatedPassword repeatedPassword.empty",
    "submitEnabledChanged", "username username.invalidCharacters"]);
  client.close();
});

test("an aborted request rejects at once, its late answer is dropped, and the next request is served", async () => {
  const client = spawn(binary, ["--clock", "virtual"]);
  const controller = new AbortController();
  const pending = client.request("form.validate", { kind: "signup", values: { username: "ann" } }, { signal: controller.signal });
  controller.abort(new Error("no longer wanted"));
  await assert.rejects(pending, /no longer wanted/);
  const already = new AbortController();
  already.abort(new Error("gone"));
  await assert.rejects(client.validate("signup", {}, { signal: already.signal }), /gone/);
  const verdict = await client.validate("signup", { username: "a b" });
  assert.equal(verdict.valid, false);
  assert.equal(verdict.fields[0].code, "username.invalidCharacters");
  await assert.rejects(client.open("survey"), (error) => error instanceof RPCError && error.code === -32012);
  client.close();
});

test("over --listen on a unix socket", async () => {
  const folder = mkdtempSync(join(tmpdir(), "signup-ts-"));
  const address = join(folder, "signup.sock");
  const server = spawnProcess(binary, ["--listen", `unix:${address}`], { stdio: ["ignore", "ignore", "pipe"] });
  try {
    await new Promise((resolve, reject) => {
      const lines = createInterface({ input: server.stderr });
      lines.on("line", (line) => { if (line.startsWith("signup-rpc: listening on")) resolve(undefined); });
      server.once("exit", () => reject(new Error("the server ended before listening")));
    });
    const client = await connect({ path: address });
    const info = await client.initialize({ describeForms: false });
    assert.equal(info.protocolVersion, "1.0");
    const form = await client.open("signup", { form: "s" });
    const first = await form.events().next();
    assert.equal(first.value.type, "fieldChanged");
    client.close();
  } finally {
    server.kill("SIGTERM");
    rmSync(folder, { recursive: true, force: true });
  }
});
