// A plain JSON-lines loop doing a keystroke's work as signup-rpc does it, for signup-bench's
// figure 2: the same as jsonlines.py, in Node: reads `form.open` and `form.edit` requests a line
// at a time, keeps each form's fields and versions, judges the sign-up form's local rules, and
// writes the `form.fieldChanged` notification and the response. A baseline, not a server.
import { createInterface } from "node:readline";

const start = performance.now();
const fields = ["username", "password", "repeatedPassword"];
const forms = new Map();

function judge(form, field) {
  const value = form.values[field];
  if (value === "") return ["empty", `${field}.empty`, {}, ""];
  if (field === "username") {
    if (!/^[\p{L}\p{N}_.-]+$/u.test(value)) {
      return ["failed", "username.invalidCharacters", {}, "Username can only contain letters, digits, '_', '-' and '.'"];
    }
    return ["validating", "username.checking", {}, "Checking availability..."];
  }
  if (field === "password") {
    if ([...value].length < 5) return ["failed", "password.tooShort", { min: 5 }, "Password must be at least 5 characters"];
    return ["ok", "password.acceptable", {}, "Password acceptable"];
  }
  if (value !== form.values.password) return ["failed", "repeatedPassword.mismatch", {}, "Passwords do not match"];
  return ["ok", "repeatedPassword.matches", {}, "Password repeated"];
}

function changed(formId, form, field, at) {
  const [state, code, params, message] = judge(form, field);
  return JSON.stringify({
    jsonrpc: "2.0", method: "form.fieldChanged",
    params: { form: formId, field, state, code, params, message, version: form.version, at },
  });
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  const params = message.params ?? {};
  const at = Math.floor(performance.now() - start);
  const formId = params.form ?? "default";
  let out = "";
  let result = null;
  if (message.method === "form.open") {
    const form = { values: Object.fromEntries(fields.map((f) => [f, ""])), version: 0 };
    forms.set(formId, form);
    for (const field of fields) out += changed(formId, form, field, at) + "\n";
    result = { form: formId, kind: "signup", version: 0, locale: "en" };
  } else if (message.method === "form.edit") {
    const form = forms.get(formId);
    form.values[params.field] = params.value;
    form.version += 1;
    out += changed(formId, form, params.field, at) + "\n";
    result = { form: formId, version: form.version };
  }
  if ("id" in message) out += JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\n";
  process.stdout.write(out);
});
