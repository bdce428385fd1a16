/** Cuts a byte stream into lines: UTF-8 decoded across chunks, blank lines skipped. */
export class LineStream {
    decoder = new TextDecoder();
    rest = "";
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
    code;
    data;
    constructor(error) {
        super(`${error.message} (${error.code})`);
        this.name = "RPCError";
        this.code = error.code;
        this.data = "data" in error ? error.data : undefined;
    }
}
/** The connection ended before an answer came. */
export class ConnectionClosed extends Error {
    constructor(reason) {
        super(`connection closed: ${reason}`);
        this.name = "ConnectionClosed";
    }
}
export class SignupClient {
    transport;
    nextId = 1;
    pending = new Map();
    backlogs = new Map();
    closeListeners = new Set();
    /** The open forms by id. */
    forms = new Map();
    /** Why the connection ended, once it has. */
    closedReason = null;
    constructor(transport) {
        this.transport = transport;
        transport.start((line) => this.receive(line), (reason) => this.ended(reason));
    }
    /**
     * Sends a request and resolves with its result; an error answer rejects with RPCError. An
     * aborted `signal` rejects at once with the signal's reason; the server still answers the
     * request, and that answer is then dropped (the protocol has no cancellation).
     */
    request(method, params, options = {}) {
        if (this.closedReason !== null)
            return Promise.reject(new ConnectionClosed(this.closedReason));
        const { signal } = options;
        if (signal?.aborted)
            return Promise.reject(signal.reason);
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            const onAbort = () => {
                this.pending.delete(id);
                reject(signal?.reason);
            };
            signal?.addEventListener("abort", onAbort, { once: true });
            this.pending.set(id, {
                resolve: (value) => { signal?.removeEventListener("abort", onAbort); resolve(value); },
                reject: (error) => { signal?.removeEventListener("abort", onAbort); reject(error); },
            });
            this.transport.send(JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }));
        });
    }
    notify(method, params) {
        if (this.closedReason !== null)
            return;
        this.transport.send(JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }));
    }
    initialize(options = {}) {
        const { locale, describeForms = true, clientName = "@signup-rpc/client", signal } = options;
        return this.request("initialize", {
            clientInfo: { name: clientName }, capabilities: { formDescriptions: describeForms }, ...(locale === undefined ? {} : { locale }),
        }, { signal });
    }
    /** Opens a form; its opening events are already in the form when this resolves. */
    async open(kind, options = {}) {
        const { signal, ...params } = options;
        const result = await this.request("form.open", { kind, ...params }, { signal });
        const form = new SignupForm(this, result);
        this.forms.set(result.form, form);
        for (const event of this.backlogs.get(result.form) ?? [])
            form.deliver(event);
        this.backlogs.delete(result.form);
        return form;
    }
    /** A whole object judged by a kind's rules, with a live form's codes (no form is opened). */
    validate(kind, values, options = {}) {
        return this.request("form.validate", { kind, values, ...(options.locale === undefined ? {} : { locale: options.locale }) }, { signal: options.signal });
    }
    /** Moves virtual time (servers started with `--clock virtual`); resolves with the time now. */
    async advanceClock(move) {
        return (await this.request("clock.advance", move)).now;
    }
    shutdown() {
        return this.request("shutdown");
    }
    /** Asks the server to end, then closes the connection. */
    close() {
        this.notify("exit");
        this.transport.close();
    }
    /** Calls `listener` once the connection has ended, with why. */
    onClose(listener) {
        this.closeListeners.add(listener);
        return () => { this.closeListeners.delete(listener); };
    }
    receive(line) {
        let message;
        try {
            message = JSON.parse(line);
        }
        catch {
            return;
        }
        for (const single of (Array.isArray(message) ? message : [message])) {
            if (typeof single.method === "string") {
                this.route(single.method, single.params);
                continue;
            }
            const waiting = typeof single.id === "number" ? this.pending.get(single.id) : undefined;
            if (!waiting)
                continue;
            this.pending.delete(single.id);
            if (single.error)
                waiting.reject(new RPCError(single.error));
            else
                waiting.resolve(single.result);
        }
    }
    route(method, params) {
        let event;
        if (method === "form.fieldChanged")
            event = { type: "fieldChanged", params };
        else if (method === "form.fieldPresenceChanged")
            event = { type: "fieldPresenceChanged", params };
        else if (method === "form.submitEnabledChanged")
            event = { type: "submitEnabledChanged", params };
        else if (method === "form.submissionChanged")
            event = { type: "submissionChanged", params };
        else
            return;
        const form = this.forms.get(params.form);
        if (form) {
            form.deliver(event);
            return;
        }
        const backlog = this.backlogs.get(params.form) ?? [];
        if (backlog.length < BACKLOG_LIMIT)
            backlog.push(event);
        this.backlogs.set(params.form, backlog);
    }
    ended(reason) {
        if (this.closedReason !== null)
            return;
        this.closedReason = reason;
        for (const { reject } of this.pending.values())
            reject(new ConnectionClosed(reason));
        this.pending.clear();
        for (const form of this.forms.values())
            form.end();
        for (const listener of [...this.closeListeners])
            listener(reason);
    }
}
/** One open form: edits and taps out, its events in, in order. */
export class SignupForm {
    client;
    id;
    kind;
    locale;
    description;
    recordId;
    version;
    backlog = [];
    listeners = new Set();
    waiters = [];
    isEnded = false;
    constructor(client, result) {
        this.client = client;
        this.id = result.form;
        this.kind = result.kind;
        this.version = result.version;
        this.locale = result.locale;
        this.description = result.description;
        this.recordId = result.recordId;
    }
    async edit(field, value, options = {}) {
        const result = await this.client.request("form.edit", { form: this.id, field, value, ...(options.at === undefined ? {} : { at: options.at }) }, { signal: options.signal });
        this.version = result.version;
        return result.version;
    }
    submit(options = {}) {
        return this.client.request("form.submit", { form: this.id, ...(options.at === undefined ? {} : { at: options.at }) }, { signal: options.signal });
    }
    snapshot() {
        return this.client.request("form.snapshot", { form: this.id });
    }
    /** Closes the form; it sends nothing more. */
    async close() {
        this.client.forms.delete(this.id);
        this.end();
        await this.client.request("form.close", { form: this.id });
    }
    /** Calls `listener` with every event, first those that came before it listened. */
    on(listener) {
        this.listeners.add(listener);
        for (const event of this.backlog.splice(0))
            listener(event);
        return () => { this.listeners.delete(listener); };
    }
    /** The form's events as an async iterator; it ends when the form closes or the connection ends. */
    events() {
        const form = this;
        return {
            [Symbol.asyncIterator]() { return this; },
            next() {
                const event = form.backlog.shift();
                if (event)
                    return Promise.resolve({ value: event, done: false });
                if (form.isEnded)
                    return Promise.resolve({ value: undefined, done: true });
                return new Promise((resolve) => form.waiters.push(resolve));
            },
            return() { return Promise.resolve({ value: undefined, done: true }); },
        };
    }
    /** Takes an event from the connection (the client calls it). */
    deliver(event) {
        const waiter = this.waiters.shift();
        if (waiter)
            waiter({ value: event, done: false });
        else if (this.listeners.size === 0 && this.backlog.length < BACKLOG_LIMIT)
            this.backlog.push(event);
        for (const listener of [...this.listeners])
            listener(event);
    }
    /** The form sends nothing more (the client calls it). */
    end() {
        this.isEnded = true;
        for (const waiter of this.waiters.splice(0))
            waiter({ value: undefined, done: true });
    }
}
