// A small client for signup-rpc: open forms, send edits and taps, get events as callbacks or an
// async iterator. It speaks JSON lines over any transport: a WebSocket in the browser (through
// websocketd, or websockify in front of `signup-rpc --listen`) or a child process in Node. Types
// come from protocol-types.js, generated from the project's schemas.

/** @typedef {import('./protocol-types.js').InitializeResult} InitializeResult */
/** @typedef {import('./protocol-types.js').OpenResult} OpenResult */
/** @typedef {import('./protocol-types.js').EditResult} EditResult */
/** @typedef {import('./protocol-types.js').SubmitResult} SubmitResult */
/** @typedef {import('./protocol-types.js').SnapshotResult} SnapshotResult */
/** @typedef {import('./protocol-types.js').FormDescription} FormDescription */
/** @typedef {import('./protocol-types.js').FieldChangedParams} FieldChangedParams */
/** @typedef {import('./protocol-types.js').SubmitEnabledChangedParams} SubmitEnabledChangedParams */
/** @typedef {import('./protocol-types.js').FieldPresenceChangedParams} FieldPresenceChangedParams */
/** @typedef {import('./protocol-types.js').SubmissionChangedParams} SubmissionChangedParams */
/** @typedef {import('./protocol-types.js').Error} ErrorObject */

/**
 * An event of a form, tagged with the notification's method.
 * @typedef {{type: "fieldChanged", params: FieldChangedParams}
 *   | {type: "fieldPresenceChanged", params: FieldPresenceChangedParams}
 *   | {type: "submitEnabledChanged", params: SubmitEnabledChangedParams}
 *   | {type: "submissionChanged", params: SubmissionChangedParams}} FormEvent
 */

/**
 * Whatever carries lines both ways.
 * @typedef {object} Transport
 * @property {(line: string) => void} send
 * @property {(onLine: (line: string) => void, onClose: (reason: string) => void) => void} start
 * @property {() => void} close
 */

/**
 * Cuts a byte stream into lines: UTF-8 decoded across chunk boundaries, a line's end wherever it
 * falls, blank lines skipped.
 */
export class LineStream {
  constructor() {
    /** @private */ this.decoder = new TextDecoder();
    /** @private */ this.rest = "";
  }

  /**
   * The lines the chunk completes.
   * @param {Uint8Array} chunk
   * @returns {string[]}
   */
  push(chunk) {
    const lines = (this.rest + this.decoder.decode(chunk, { stream: true })).split("\n");
    this.rest = lines.pop() ?? "";
    return lines.map((line) => line.replace(/\r$/, "")).filter((line) => line.trim() !== "");
  }
}

/** How many events of a form are kept until something listens to it. */
const BACKLOG_LIMIT = 10000;

/** The server answered with an error (protocol.md §9). */
export class RPCError extends Error {
  /** @param {ErrorObject} error */
  constructor(error) {
    super(`${error.message} (${error.code})`);
    this.name = "RPCError";
    this.code = error.code;
    /** @type {any} */
    this.data = "data" in error ? error.data : undefined;
  }
}

/** The connection ended before an answer came. */
export class ConnectionClosed extends Error {
  /** @param {string} reason */
  constructor(reason) {
    super(`connection closed: ${reason}`);
    this.name = "ConnectionClosed";
  }
}

export class SignupClient {
  /** @param {Transport} transport */
  constructor(transport) {
    /** @private */ this.transport = transport;
    /** @private */ this.nextId = 1;
    /** @private @type {Map<number, {resolve: (value: any) => void, reject: (error: Error) => void}>} */
    this.pending = new Map();
    /** @type {Map<string, SignupForm>} the open forms by id (read by SignupForm.close) */
    this.forms = new Map();
    /** @private @type {Map<string, FormEvent[]>} */
    this.backlogs = new Map();
    /** @private @type {Set<(reason: string) => void>} */
    this.closeListeners = new Set();
    /** @type {string | null} why the connection ended, once it has */
    this.closedReason = null;
    transport.start((line) => this.receive(line), (reason) => this.ended(reason));
  }

  /**
   * Connects to signup-rpc behind a WebSocket bridge: websocketd (a process per connection, a
   * text message a line) or websockify in front of `signup-rpc --listen` (one process for every
   * tab, the connection's bytes as binary messages, lines cut anywhere). Each line is sent as a
   * binary message ending in its newline, which both bridges pass on as it is.
   * @param {string} url such as `ws://127.0.0.1:8080/`
   * @returns {Promise<SignupClient>}
   */
  static connect(url) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.binaryType = "arraybuffer";
      const encoder = new TextEncoder();
      let opened = false;
      socket.addEventListener("open", () => {
        opened = true;
        resolve(new SignupClient({
          send: (line) => socket.send(encoder.encode(line + "\n")),
          start: (onLine, onClose) => {
            const stream = new LineStream();
            socket.addEventListener("message", (event) => {
              if (typeof event.data === "string") onLine(event.data);
              else stream.push(new Uint8Array(event.data)).forEach(onLine);
            });
            socket.addEventListener("close", (event) => onClose(event.reason || `code ${event.code}`));
          },
          close: () => socket.close(),
        }));
      });
      socket.addEventListener("close", () => { if (!opened) reject(new ConnectionClosed(`could not connect to ${url}`)); });
    });
  }

  /**
   * Starts signup-rpc as a child process (Node only).
   * @param {string} binary the path of signup-rpc
   * @param {string[]} [args] such as `["--clock", "virtual"]`
   * @returns {Promise<SignupClient>}
   */
  static async spawn(binary, args = []) {
    const { spawn } = await import("node:child_process");
    const { createInterface } = await import("node:readline");
    const child = spawn(binary, args, { stdio: ["pipe", "pipe", "inherit"] });
    const client = new SignupClient({
      send: (line) => { child.stdin.write(line + "\n"); },
      start: (onLine, onClose) => {
        createInterface({ input: child.stdout }).on("line", onLine);
        child.on("exit", (code, signal) => onClose(signal ? `signal ${signal}` : `exit ${code}`));
      },
      close: () => { child.stdin.end(); },
    });
    client.process = child;
    return client;
  }

  /** @type {any} the child process, when spawned */
  process = null;

  /**
   * Sends a request and resolves with its result; an error answer rejects with RPCError.
   * @param {string} method
   * @param {object} [params]
   * @returns {Promise<any>}
   */
  request(method, params) {
    if (this.closedReason !== null) return Promise.reject(new ConnectionClosed(this.closedReason));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.transport.send(JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }));
    });
  }

  /**
   * @param {string} method
   * @param {object} [params]
   */
  notify(method, params) {
    if (this.closedReason !== null) return;
    this.transport.send(JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }));
  }

  /**
   * @param {{locale?: string, describeForms?: boolean, clientName?: string}} [options]
   * @returns {Promise<InitializeResult>}
   */
  initialize(options = {}) {
    const { locale, describeForms = true, clientName = "signup-client.js" } = options;
    /** @type {{clientInfo: object, capabilities: object, locale?: string}} */
    const params = { clientInfo: { name: clientName }, capabilities: { formDescriptions: describeForms } };
    if (locale !== undefined) params.locale = locale;
    return this.request("initialize", params);
  }

  /**
   * Opens a form; its opening events are already in the form's backlog when this resolves.
   * @param {string} kind
   * @param {{form?: string, values?: Object<string, string>, record?: Object<string, string>, locale?: string, describe?: boolean, at?: number}} [options]
   * @returns {Promise<SignupForm>}
   */
  async open(kind, options = {}) {
    /** @type {OpenResult} */
    const result = await this.request("form.open", { kind, ...options });
    const form = new SignupForm(this, result);
    this.forms.set(result.form, form);
    for (const event of this.backlogs.get(result.form) ?? []) form.deliver(event);
    this.backlogs.delete(result.form);
    return form;
  }

  /**
   * Moves virtual time (servers started with `--clock virtual`).
   * @param {{by?: number, to?: number}} move
   * @returns {Promise<number>} the time now
   */
  async advanceClock(move) {
    return (await this.request("clock.advance", move)).now;
  }

  /** @returns {Promise<null>} */
  shutdown() { return this.request("shutdown"); }

  /** Asks the server to end, then closes the connection. */
  close() {
    this.notify("exit");
    this.transport.close();
  }

  /**
   * Calls `listener` once the connection has ended, with why.
   * @param {(reason: string) => void} listener
   * @returns {() => void} stops listening
   */
  onClose(listener) {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** @private @param {string} line */
  receive(line) {
    let message;
    try { message = JSON.parse(line); } catch { return; }
    for (const single of Array.isArray(message) ? message : [message]) {
      if (typeof single.method === "string") {
        this.route(single.method, single.params);
        continue;
      }
      const waiting = typeof single.id === "number" ? this.pending.get(single.id) : undefined;
      if (!waiting) continue;
      this.pending.delete(single.id);
      if (single.error) waiting.reject(new RPCError(single.error));
      else waiting.resolve(single.result);
    }
  }

  /** @private @param {string} method @param {any} params */
  route(method, params) {
    /** @type {FormEvent} */
    let event;
    if (method === "form.fieldChanged") event = { type: "fieldChanged", params };
    else if (method === "form.fieldPresenceChanged") event = { type: "fieldPresenceChanged", params };
    else if (method === "form.submitEnabledChanged") event = { type: "submitEnabledChanged", params };
    else if (method === "form.submissionChanged") event = { type: "submissionChanged", params };
    else return;
    const form = this.forms.get(params.form);
    if (form) { form.deliver(event); return; }
    const backlog = this.backlogs.get(params.form) ?? [];
    if (backlog.length < BACKLOG_LIMIT) backlog.push(event);
    this.backlogs.set(params.form, backlog);
  }

  /** @private @param {string} reason */
  ended(reason) {
    if (this.closedReason !== null) return;
    this.closedReason = reason;
    for (const { reject } of this.pending.values()) reject(new ConnectionClosed(reason));
    this.pending.clear();
    for (const form of this.forms.values()) form.end();
    for (const listener of [...this.closeListeners]) listener(reason);
  }
}

/** One open form: edits and taps out, its events in, in order. */
export class SignupForm {
  /**
   * @param {SignupClient} client
   * @param {OpenResult} result
   */
  constructor(client, result) {
    this.client = client;
    this.id = result.form;
    this.kind = result.kind;
    this.version = result.version;
    this.locale = result.locale;
    /** @type {FormDescription | undefined} */
    this.description = result.description;
    this.recordId = result.recordId;
    /** @private @type {FormEvent[]} events not yet taken by a listener or an iterator */
    this.backlog = [];
    /** @private @type {Set<(event: FormEvent) => void>} */
    this.listeners = new Set();
    /** @private @type {((value: IteratorResult<FormEvent>) => void)[]} */
    this.waiters = [];
    /** @private */ this.ended = false;
  }

  /**
   * @param {string} field
   * @param {string} value
   * @returns {Promise<number>} the form's edit version
   */
  async edit(field, value) {
    /** @type {EditResult} */
    const result = await this.client.request("form.edit", { form: this.id, field, value });
    this.version = result.version;
    return result.version;
  }

  /** @returns {Promise<SubmitResult>} */
  submit() { return this.client.request("form.submit", { form: this.id }); }

  /** @returns {Promise<SnapshotResult>} */
  snapshot() { return this.client.request("form.snapshot", { form: this.id }); }

  /** Closes the form; it sends nothing more. */
  async close() {
    this.client.forms.delete(this.id);
    this.end();
    await this.client.request("form.close", { form: this.id });
  }

  /**
   * Calls `listener` with every event of the form, first those that came before it listened.
   * @param {(event: FormEvent) => void} listener
   * @returns {() => void} stops listening
   */
  on(listener) {
    this.listeners.add(listener);
    const waiting = this.backlog.splice(0);
    for (const event of waiting) listener(event);
    return () => this.listeners.delete(listener);
  }

  /**
   * The form's events as an async iterator; it ends when the form closes or the connection ends.
   * @returns {AsyncIterableIterator<FormEvent>}
   */
  events() {
    const form = this;
    return {
      [Symbol.asyncIterator]() { return this; },
      next() {
        const event = form.backlog.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (form.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => form.waiters.push(resolve));
      },
      return() { return Promise.resolve({ value: undefined, done: true }); },
    };
  }

  /** @param {FormEvent} event */
  deliver(event) {
    const waiter = this.waiters.shift();
    if (waiter) waiter({ value: event, done: false });
    else if (this.listeners.size === 0 && this.backlog.length < BACKLOG_LIMIT) this.backlog.push(event);
    for (const listener of [...this.listeners]) listener(event);
  }

  end() {
    this.ended = true;
    for (const waiter of this.waiters.splice(0)) waiter({ value: undefined, done: true });
  }
}
