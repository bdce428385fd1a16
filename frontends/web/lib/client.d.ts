import type { Methods, Notifications, OpenResult, FormDescription, SnapshotResult, SubmitResult, ValidateResult, InitializeResult, Error as ErrorObject } from "./protocol.js";
/** Whatever carries lines both ways. */
export interface Transport {
    send(line: string): void;
    start(onLine: (line: string) => void, onClose: (reason: string) => void): void;
    close(): void;
}
/** A form's event, tagged with its notification's name. */
export declare type FormEvent = {
    type: "fieldChanged";
    params: Notifications["form.fieldChanged"];
} | {
    type: "fieldPresenceChanged";
    params: Notifications["form.fieldPresenceChanged"];
} | {
    type: "submitEnabledChanged";
    params: Notifications["form.submitEnabledChanged"];
} | {
    type: "submissionChanged";
    params: Notifications["form.submissionChanged"];
};
/** Cuts a byte stream into lines: UTF-8 decoded across chunks, blank lines skipped. */
export declare class LineStream {
    private decoder;
    private rest;
    push(chunk: Uint8Array): string[];
}
/** The server answered with an error (protocol.md §9). */
export declare class RPCError extends Error {
    readonly code: number;
    readonly data: unknown;
    constructor(error: ErrorObject);
}
/** The connection ended before an answer came. */
export declare class ConnectionClosed extends Error {
    constructor(reason: string);
}
export declare class SignupClient {
    private readonly transport;
    private nextId;
    private pending;
    private backlogs;
    private closeListeners;
    /** The open forms by id. */
    readonly forms: Map<string, SignupForm>;
    /** Why the connection ended, once it has. */
    closedReason: string | null;
    constructor(transport: Transport);
    /**
     * Sends a request and resolves with its result; an error answer rejects with RPCError. An
     * aborted `signal` rejects at once with the signal's reason; the server still answers the
     * request, and that answer is then dropped (the protocol has no cancellation).
     */
    request<M extends keyof Methods>(method: M, params?: Methods[M]["params"], options?: {
        signal?: AbortSignal;
    }): Promise<Methods[M]["result"]>;
    notify<M extends keyof Methods>(method: M, params?: Methods[M]["params"]): void;
    initialize(options?: {
        locale?: string;
        describeForms?: boolean;
        clientName?: string;
        signal?: AbortSignal;
    }): Promise<InitializeResult>;
    /** Opens a form; its opening events are already in the form when this resolves. */
    open(kind: string, options?: Omit<Methods["form.open"]["params"], "kind"> & {
        signal?: AbortSignal;
    }): Promise<SignupForm>;
    /** A whole object judged by a kind's rules, with a live form's codes (no form is opened). */
    validate(kind: string, values: Record<string, string>, options?: {
        locale?: string;
        signal?: AbortSignal;
    }): Promise<ValidateResult>;
    /** Moves virtual time (servers started with `--clock virtual`); resolves with the time now. */
    advanceClock(move: {
        by?: number;
        to?: number;
    }): Promise<number>;
    shutdown(): Promise<unknown>;
    /** Asks the server to end, then closes the connection. */
    close(): void;
    /** Calls `listener` once the connection has ended, with why. */
    onClose(listener: (reason: string) => void): () => void;
    private receive;
    private route;
    private ended;
}
/** One open form: edits and taps out, its events in, in order. */
export declare class SignupForm {
    readonly client: SignupClient;
    readonly id: string;
    readonly kind: string;
    readonly locale: string;
    readonly description: FormDescription | undefined;
    readonly recordId: string | undefined;
    version: number;
    private backlog;
    private listeners;
    private waiters;
    private isEnded;
    constructor(client: SignupClient, result: OpenResult);
    edit(field: string, value: string, options?: {
        at?: number;
        signal?: AbortSignal;
    }): Promise<number>;
    submit(options?: {
        at?: number;
        signal?: AbortSignal;
    }): Promise<SubmitResult>;
    snapshot(): Promise<SnapshotResult>;
    /** Closes the form; it sends nothing more. */
    close(): Promise<void>;
    /** Calls `listener` with every event, first those that came before it listened. */
    on(listener: (event: FormEvent) => void): () => void;
    /** The form's events as an async iterator; it ends when the form closes or the connection ends. */
    events(): AsyncIterableIterator<FormEvent>;
    /** Takes an event from the connection (the client calls it). */
    deliver(event: FormEvent): void;
    /** The form sends nothing more (the client calls it). */
    end(): void;
}
