// A framework-free store of one form's state, built from its events: React binds it with
// useSyncExternalStore(store.subscribe, store.getSnapshot), Vue with a shallowRef updated in
// subscribe, Svelte as a readable store (`subscribe` here calls back once at once as Svelte asks).
import type { SignupForm, FormEvent } from "./client.js";
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

export class FormStore {
  private state: FormState = { fields: {}, submitEnabled: false, submission: null };
  private listeners = new Set<() => void>();
  private stop: () => void;

  constructor(form: SignupForm) {
    this.stop = form.on((event) => this.apply(event));
  }

  readonly getSnapshot = (): FormState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  };

  /** Stops following the form. */
  dispose(): void {
    this.stop();
    this.listeners.clear();
  }

  private apply(event: FormEvent): void {
    const fields = { ...this.state.fields };
    const was: FieldState = fields[event.type === "fieldChanged" || event.type === "fieldPresenceChanged" ? event.params.field : ""]
      ?? { state: "empty", code: "", params: {}, message: "", version: 0, shown: true, required: null };
    switch (event.type) {
      case "fieldChanged": {
        const { field, state, code, params, message, version } = event.params;
        fields[field] = { ...was, state, code, params, message, version };
        this.state = { ...this.state, fields };
        break;
      }
      case "fieldPresenceChanged":
        fields[event.params.field] = { ...was, shown: event.params.shown, required: event.params.required };
        this.state = { ...this.state, fields };
        break;
      case "submitEnabledChanged":
        this.state = { ...this.state, submitEnabled: event.params.enabled };
        break;
      case "submissionChanged":
        this.state = { ...this.state, submission: event.params };
        break;
    }
    for (const listener of [...this.listeners]) listener();
  }
}
