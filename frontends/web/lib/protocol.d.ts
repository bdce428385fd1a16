/** A form's id; `default` names the implicit signup form. */
export declare type FormId = string;
/** Milliseconds on the server's clock; at most the latest time, 2^53 - 1. */
export declare type Time = number;
/** A form's edit version. */
export declare type Version = number;
export declare type StringMap = Record<string, string>;
/** Values a message is built from, such as {"min":5}; on a checklist field's failure also `unmet`, the codes of every rule failing now. */
export declare type MessageParams = Record<string, (string | number | boolean | null | Array<string>)>;
export declare type Locale = string;
export declare type FieldState = ("empty" | "validating" | "ok" | "failed");
/** The kind of the field's first remote check; null for none. */
export declare type RemoteCheckKind = ("usernameAvailability" | "http" | "unique" | "breachedPassword" | null);
/** text, name, username, password, newPassword, email, phone or number; clients draw text for a kind they do not know. */
export declare type InputKind = string;
export declare type DescribedField = {
    name: string;
    required: boolean;
    secret: boolean;
    remoteCheck: RemoteCheckKind;
    label: string;
    placeholder: (string | null);
    input: InputKind;
    maxLength: (number | null);
    remoteChecks: Array<RemoteCheck>;
    requirements?: Array<Requirement>;
    help?: string;
    default?: string;
    conditional?: true;
    choices?: Array<string>;
};
export declare type SubmissionStateDescription = {
    state: string;
    meaning: ("idle" | "submitting" | "succeeded" | "failed");
    message: string;
};
export declare type FailureDescription = {
    code: string;
    message: string;
};
/** Everything a generic frontend draws a form from, in one locale (protocol.md, Describing forms). */
export declare type FormDescription = {
    kind: string;
    title: string;
    fields: Array<DescribedField>;
    submit: {
        label: string;
        result: ("account" | "friend" | "result");
        states: Array<SubmissionStateDescription>;
        failures: Array<FailureDescription>;
    };
};
export declare type Null = null;
export declare type FormParams = {
    form?: FormId;
    at?: Time;
};
/** A JSON-RPC error object; `data` by code (protocol.md §9). */
export declare type Error = ({
    code: -32700;
    message: string;
    data: {
        offset: number;
    };
} | {
    code: -32600;
    message: string;
} | {
    code: -32601;
    message: string;
    data: {
        method: string;
    };
} | {
    code: -32602;
    message: string;
    data: {
        member: string;
        problem: string;
    };
} | {
    code: -32603;
    message: string;
} | {
    code: -32001;
    message: string;
} | {
    code: -32002;
    message: string;
    data: {
        now: Time;
        requested: number;
    };
} | {
    code: -32003;
    message: string;
} | {
    code: -32004;
    message: string;
} | {
    code: -32010;
    message: string;
    data: {
        form: string;
    };
} | {
    code: -32011;
    message: string;
    data: {
        form: string;
    };
} | {
    code: -32012;
    message: string;
    data: {
        kind: string;
        known: Array<string>;
    };
} | {
    code: -32013;
    message: string;
    data: {
        field: string;
        kind: string;
        fields: Array<string>;
    };
} | {
    code: -32020;
    message: string;
    data: {
        limit: number;
    };
} | {
    code: -32021;
    message: string;
    data: {
        field: string;
        limit: number;
        unit: ("characters" | "bytes");
    };
} | {
    code: -32022;
    message: string;
    data: {
        limit: number;
    };
} | {
    code: -32023;
    message: string;
    data: {
        limit: number;
    };
});
/** A remote check as a frontend may know it: never its URL or headers. */
export declare type RemoteCheck = {
    name: string;
    kind: ("usernameAvailability" | "http" | "unique" | "breachedPassword");
};
export declare type Requirement = {
    code: string;
    message: string;
};
export declare type FieldSummary = {
    name: string;
    required: boolean;
    secret: boolean;
    remoteCheck: RemoteCheckKind;
};
export declare type FormSummary = {
    kind: string;
    fields: Array<FieldSummary>;
};
export declare type Limits = {
    maxLineBytes: number;
    maxValueLength: number;
    maxValueBytes: number;
    maxForms: number;
    maxBatch: number;
    maxDepth: number;
};
/** Members not listed are ignored, as LSP clients send their own. */
export declare type InitializeParams = {
    processId?: (number | null);
    clientInfo?: Record<string, any>;
    capabilities?: {
        formDescriptions?: boolean;
        [member: string]: any;
    };
    locale?: Locale;
    clientKey?: string;
    [member: string]: any;
};
export declare type InitializeResult = {
    serverInfo: {
        name: "signup-rpc";
        version: string;
    };
    protocolVersion: "1.0";
    locale: Locale;
    unsupportedLocale?: string;
    capabilities: {
        forms: Array<(FormSummary | FormDescription)>;
        locales: Array<Locale>;
        clock: ("real" | "virtual");
        clocks: Array<("real" | "virtual")>;
        debounceMs: number;
        limits: Limits;
    };
};
export declare type OpenParams = {
    kind?: string;
    form?: FormId;
    values?: StringMap;
    record?: StringMap;
    locale?: Locale;
    describe?: boolean;
    at?: Time;
};
export declare type OpenResult = {
    form: FormId;
    kind: string;
    version: Version;
    recordId?: string;
    locale: Locale;
    unsupportedLocale?: string;
    description?: FormDescription;
};
export declare type EditParams = {
    form?: FormId;
    field: string;
    value: string;
    at?: Time;
};
export declare type EditResult = {
    form: FormId;
    version: Version;
};
export declare type SubmitResult = {
    form: FormId;
    accepted: boolean;
    reason?: ("invalid" | "validating" | "submitting" | "submitted");
};
export declare type FieldSnapshot = {
    field: string;
    state: FieldState;
    code: string;
    params: MessageParams;
    message: string;
    version: Version;
};
/** idle or submitting (nothing more), succeeded (with account, friend or result) or failed (code, params, message); login forms name them loggedOut, loggingIn, loggedIn, loginFailed. */
export declare type Submission = {
    state: string;
    account?: Record<string, any>;
    friend?: Record<string, any>;
    result?: any;
    code?: string;
    params?: MessageParams;
    message?: string;
};
export declare type SnapshotResult = {
    form: FormId;
    kind: string;
    version: Version;
    fields: Array<FieldSnapshot>;
    submitEnabled: boolean;
    recordId?: string;
    submission: Submission;
};
export declare type ValidateParams = {
    kind?: string;
    values?: StringMap;
    locale?: Locale;
    at?: Time;
};
export declare type ValidateResult = {
    kind: string;
    locale: Locale;
    unsupportedLocale?: string;
    valid: boolean;
    fields: Array<FieldVerdict>;
    issues?: Array<{
        code: string;
        params: MessageParams;
        message: string;
    }>;
};
export declare type FieldVerdict = {
    field: string;
    state: FieldState;
    code: string;
    params: MessageParams;
    message: string;
    shown?: false;
};
export declare type CloseResult = {
    form: FormId;
};
export declare type AdvanceParams = {
    by?: number;
    to?: Time;
    exclusive?: boolean;
};
export declare type AdvanceResult = {
    now: Time;
};
export declare type FieldChangedParams = {
    form: FormId;
    field: string;
    state: FieldState;
    code: string;
    params: MessageParams;
    message: string;
    version: Version;
    at: Time;
};
export declare type FieldPresenceChangedParams = {
    form: FormId;
    field: string;
    shown: boolean;
    required: boolean;
    at: Time;
};
export declare type SubmitEnabledChangedParams = {
    form: FormId;
    enabled: boolean;
    at: Time;
};
export declare type SubmissionChangedParams = {
    form: FormId;
    state: string;
    account?: Record<string, any>;
    friend?: Record<string, any>;
    result?: any;
    code?: string;
    params?: MessageParams;
    message?: string;
    at: Time;
};
/** Each request's params and result, by method. */
export interface Methods {
    "initialize": {
        params: {
            processId?: (number | null);
            clientInfo?: Record<string, any>;
            capabilities?: {
                formDescriptions?: boolean;
                [member: string]: any;
            };
            locale?: Locale;
            clientKey?: string;
        };
        result: InitializeResult;
    };
    "initialized": {
        params: {};
        result: Null;
    };
    "shutdown": {
        params: {};
        result: Null;
    };
    "exit": {
        params: {};
        result: Null;
    };
    "form.open": {
        params: {
            kind?: string;
            form?: FormId;
            values?: StringMap;
            record?: StringMap;
            locale?: Locale;
            describe?: boolean;
            at?: Time;
        };
        result: OpenResult;
    };
    "form.edit": {
        params: {
            form?: FormId;
            field: string;
            value: string;
            at?: Time;
        };
        result: EditResult;
    };
    "form.submit": {
        params: {
            form?: FormId;
            at?: Time;
        };
        result: SubmitResult;
    };
    "form.snapshot": {
        params: {
            form?: FormId;
            at?: Time;
        };
        result: SnapshotResult;
    };
    "form.validate": {
        params: {
            kind?: string;
            values?: StringMap;
            locale?: Locale;
            at?: Time;
        };
        result: ValidateResult;
    };
    "form.close": {
        params: {
            form?: FormId;
            at?: Time;
        };
        result: CloseResult;
    };
    "clock.advance": {
        params: {
            by?: number;
            to?: Time;
            exclusive?: boolean;
        };
        result: AdvanceResult;
    };
}
/** Each notification's params, by method. */
export interface Notifications {
    "form.fieldChanged": {
        form: FormId;
        field: string;
        state: FieldState;
        code: string;
        params: MessageParams;
        message: string;
        version: Version;
        at: Time;
    };
    "form.fieldPresenceChanged": {
        form: FormId;
        field: string;
        shown: boolean;
        required: boolean;
        at: Time;
    };
    "form.submitEnabledChanged": {
        form: FormId;
        enabled: boolean;
        at: Time;
    };
    "form.submissionChanged": {
        form: FormId;
        state: string;
        account?: Record<string, any>;
        friend?: Record<string, any>;
        result?: any;
        code?: string;
        params?: MessageParams;
        message?: string;
        at: Time;
    };
}
