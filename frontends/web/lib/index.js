// @signup-rpc/client: the typed client for signup-rpc. Node: `spawn`, `connect` (./node.js);
// browsers: `connectWebSocket` (./browser.js); any: `SignupClient` over a `Transport`.
export { SignupClient, SignupForm, LineStream, RPCError, ConnectionClosed } from "./client.js";
export { FormStore } from "./store.js";
export * from "./protocol.js";
