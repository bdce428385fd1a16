// The JavaScript client from Node, over a child process, against the real signup-rpc
// ($SIGNUP_RPC_BINARY). Virtual time, so the events are exact. Run: node --test frontends/web/tests
import { test } from "node:test";
import assert from "node:assert/strict";
import { SignupClient, RPCError, ConnectionClosed, LineStream } from "../signup-client.js";

const binary = process.env.SIGNUP_RPC_BINARY ?? new URL("../../../.build/debug/signup-rpc", import.meta.url).pathname;

/** @param {string} form @param {string} field @param {string} state @param {string} code @param {string} message @param {number} version @param {number} at */
const fieldChanged = (form, field, state, code, message, version, at) =>
  ({ type: "fieldChanged", params: { form, field, state, code, params: {}, message, version, at } });

test("a sign-up gives exactly its events, through callbacks and the async iterator", async () => {
  const client = await SignupClient.spawn(binary, ["--clock", "virtual"]);
  const info = await client.initialize();
  assert.deepEqual(info.capabilities.forms.map((form) => form.kind), ["signup", "signup-github", "login", "friend", "signup-secure"]);
  const form = await client.open("signup", { form: "f" });
  assert.equal(form.description?.title, "Sign up");
  assert.deepEqual(form.description?.fields.map((field) => field.input), ["username", "newPassword", "newPassword"]);
  const seen = [];
  form.on((event) => seen.push(event));
  assert.deepEqual(seen, [
    fieldChanged("f", "username", "empty", "username.empty", "", 0, 0),
    fieldChanged("f", "password", "empty", "password.empty", "", 0, 0),
    fieldChanged("f", "repeatedPassword", "empty", "repeatedPassword.empty", "", 0, 0),
    { type: "submitEnabledChanged", params: { form: "f", enabled: false, at: 0 } },
  ]);
  for (const [index] of [..."octocat"].entries()) await form.edit("username", "octocat".slice(0, index + 1));
  assert.equal(await client.advanceClock({ by: 500 }), 500);
  assert.deepEqual(seen.slice(4), [
    fieldChanged("f", "username", "validating", "username.checking", "Checking availability...", 1, 0),
    fieldChanged("f", "username", "failed", "username.taken", "Username already taken", 7, 500),
  ]);

  const other = await client.open("login", { form: "g", describe: false });
  assert.equal(other.description, undefined);
  const iterator = other.events();
  const first = await iterator.next();
  assert.deepEqual(first.value, fieldChanged("g", "username", "empty", "username.empty", "", 0, 500));
  await other.close();
  const rest = [];
  for await (const event of iterator) rest.push(event.type);
  assert.deepEqual(rest, ["fieldChanged", "submitEnabledChanged"]);

  await client.shutdown();
  const exited = new Promise((resolve) => client.process.on("exit", resolve));
  client.close();
  assert.equal(await exited, 0);
});

test("errors reject with the server's code and data; a server that ends rejects what waits", async () => {
  const client = await SignupClient.spawn(binary, ["--clock", "virtual"]);
  await assert.rejects(client.open("survey"), (error) => {
    assert.ok(error instanceof RPCError);
    assert.equal(error.code, -32012);
    assert.deepEqual(error.data, { kind: "survey", known: ["signup", "signup-github", "login", "friend", "signup-secure"] });
    return true;
  });
  const ended = new Promise((resolve) => client.onClose(resolve));
  client.notify("exit");
  assert.equal(await ended, "exit 1");
  await assert.rejects(client.request("form.snapshot", {}), ConnectionClosed);
});

test("a byte stream is cut into its lines wherever its chunks end, UTF-8 split across them too", () => {
  const stream = new LineStream();
  const bytes = new TextEncoder().encode('{"message":"Zoë 用户"}\r\n\n  \n{"id":2}\n{"id"');
  // One byte at a time: every boundary, inside the two-byte ë and the three-byte 用 and 户 too.
  const lines = [];
  for (const byte of bytes) lines.push(...stream.push(Uint8Array.of(byte)));
  assert.deepEqual(lines, ['{"message":"Zoë 用户"}', '{"id":2}']);
  assert.deepEqual(stream.push(new TextEncoder().encode(":3}\n")), ['{"id":3}']);
});
