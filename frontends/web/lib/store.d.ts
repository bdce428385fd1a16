import type { SignupForm } from "./client.js";
import type { Notifications } from "./protocol.js";
/** A field as the server last described it. */
export interface FieldState {
    state: Notifications["form.fieldChanged"]["state"];
    code: string;
    params: Notifications["form.fieldChanged"]["params"];
    message: string;
    version: number;
    shown: boolean;
    required: boolean | null;
}
/** The form as the server last described it; a new object after every event. */
export interface FormState {
    fields: Readonly<Record<string, FieldState>>;
    submitEnabled: boolean;
    submission: Notifications["form.submissionChanged"] | null;
}
export declare class FormStore {
    private state;
    private listeners;
    private stop;
    constructor(form: SignupForm);
    readonly getSnapshot: () => FormState;
    readonly subscribe: (listener: () => void) => (() => void);
    /** Stops following the form. */
    dispose(): void;
    private apply;
}
