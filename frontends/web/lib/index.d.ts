export { SignupClient, SignupForm, LineStream, RPCError, ConnectionClosed } from "./client.js";
export type { Transport, FormEvent } from "./client.js";
export { FormStore } from "./store.js";
export type { FormState, FieldState } from "./store.js";
export * from "./protocol.js";
