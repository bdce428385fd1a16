export class FormStore {
    state = { fields: {}, submitEnabled: false, submission: null };
    listeners = new Set();
    stop;
    constructor(form) {
        this.stop = form.on((event) => this.apply(event));
    }
    getSnapshot = () => this.state;
    subscribe = (listener) => {
        this.listeners.add(listener);
        return () => { this.listeners.delete(listener); };
    };
    /** Stops following the form. */
    dispose() {
        this.stop();
        this.listeners.clear();
    }
    apply(event) {
        const fields = { ...this.state.fields };
        const was = fields[event.type === "fieldChanged" || event.type === "fieldPresenceChanged" ? event.params.field : ""]
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
        for (const listener of [...this.listeners])
            listener();
    }
}
