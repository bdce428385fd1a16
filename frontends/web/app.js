// The page: draws whatever form the server describes, shows what the server says, and validates
// nothing itself. One signup-rpc per connection (websocketd); reconnects with the values typed.
import { SignupClient } from "./lib/index.js";
import { connectWebSocket } from "./lib/browser.js";

/** @typedef {import('./lib/client.js').SignupForm} SignupForm */
/** @typedef {import('./lib/client.js').FormEvent} FormEvent */
/** @typedef {import('./lib/protocol.js').FormDescription} FormDescription */
/** @typedef {import('./lib/protocol.js').DescribedField} DescribedField */

/** The page's own words (everything about the form itself comes from the server). */
const CHROME = {
  en: {
    lost: "Connection lost. Reconnecting…", failedToOpen: "Could not open the form: ", form: "Form", language: "Language",
    unknown: "Not checked while disconnected",
    footer: "Every message on this page comes from signup-rpc; the page validates nothing itself.",
  },
  "zh-Hans": {
    lost: "连接已断开，正在重新连接…", failedToOpen: "无法打开表单：", form: "表单", language: "语言",
    unknown: "断开连接期间未检查",
    footer: "本页的每条消息都来自 signup-rpc；页面本身不做任何校验。",
  },
};

/** What each input kind becomes in HTML, so keyboards and password managers do the right thing. */
const INPUTS = {
  text: { type: "text", autocomplete: "off" },
  name: { type: "text", autocomplete: "name" },
  username: { type: "text", autocomplete: "username" },
  password: { type: "password", autocomplete: "current-password" },
  newPassword: { type: "password", autocomplete: "new-password" },
  email: { type: "email", autocomplete: "email" },
  phone: { type: "tel", autocomplete: "tel" },
  number: { type: "text", autocomplete: "off", inputmode: "numeric" },
};

/** @param {string} id @returns {HTMLElement} */
const element = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const kindSelect = /** @type {HTMLSelectElement} */ (element("kind"));
const localeSelect = /** @type {HTMLSelectElement} */ (element("locale"));
const banner = element("banner");
const formElement = /** @type {HTMLFormElement} */ (element("form"));
const submitButton = /** @type {HTMLButtonElement} */ (element("submit"));
const submission = element("submission");

const query = new URLSearchParams(location.search);
const state = {
  kind: query.get("kind") ?? "signup",
  locale: query.get("locale") ?? "en",
  /** @type {SignupClient | null} */ client: null,
  /** @type {SignupForm | null} */ form: null,
  /** @type {FormDescription | null} */ description: null,
  /** @type {{kind: string, title: string}[]} */ kinds: [],
  retryDelay: 250,
};
localeSelect.value = state.locale;
translatePage();

/** @returns {string} */
function serverURL() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/";
}

/** Connects, says hello, and opens the form with whatever has been typed so far. */
async function connect() {
  /** @type {SignupClient} */
  let client;
  try {
    client = await connectWebSocket(serverURL());
  } catch {
    return scheduleReconnect();
  }
  state.client = client;
  client.onClose(() => connectionLost(client));
  try {
    const info = await client.initialize({ locale: state.locale, clientName: "signup-rpc web page" });
    state.kinds = info.capabilities.forms.map((form) => ({ kind: form.kind, title: "title" in form ? String(form.title) : form.kind }));
    listKinds(state.kinds);
    await openForm(typedValues());
    banner.hidden = true;
    state.retryDelay = 250;
  } catch (error) {
    if (client.closedReason === null) showProblem(String(error));
  }
}

/** @param {SignupClient} client */
function connectionLost(client) {
  if (state.client !== client) return;
  state.client = null;
  state.form = null;
  banner.textContent = chrome().lost;
  banner.hidden = false;
  submitButton.disabled = true;
  // What the server said no longer holds: every field is unknown until it says again.
  for (const wrapper of formElement.querySelectorAll(".field")) {
    if (!(wrapper instanceof HTMLElement)) continue;
    wrapper.dataset.state = "unknown";
    const line = /** @type {HTMLElement} */ (wrapper.querySelector(".message"));
    line.dataset.state = "unknown";
    delete line.dataset.code;
    /** @type {HTMLElement} */ (line.querySelector(".text")).textContent = chrome().unknown;
    for (const item of wrapper.querySelectorAll(".checklist li")) if (item instanceof HTMLElement) item.dataset.met = "unknown";
  }
  scheduleReconnect();
}

function scheduleReconnect() {
  setTimeout(connect, state.retryDelay);
  state.retryDelay = Math.min(state.retryDelay * 2, 4000);
}

/**
 * The kinds by their titles, in the session's locale.
 * @param {{kind: string, title: string}[]} kinds
 */
function listKinds(kinds) {
  kindSelect.replaceChildren(...kinds.map(({ kind, title }) => new Option(title, kind, false, kind === state.kind)));
}

/** The page's own words in the chosen language. */
function translatePage() {
  const words = chrome();
  element("kind-label").textContent = words.form;
  element("locale-label").textContent = words.language;
  kindSelect.setAttribute("aria-label", words.form);
  localeSelect.setAttribute("aria-label", words.language);
  element("footer").textContent = words.footer;
}

/** The values in the inputs now, left out when empty. */
function typedValues() {
  /** @type {Object<string, string>} */
  const values = {};
  for (const input of Array.from(formElement.querySelectorAll("input"))) {
    if (input.value !== "" && input.name) values[input.name] = input.value;
  }
  return values;
}

/** Opens `state.kind` in `state.locale` with `values`, closing the form shown before. */
async function openForm(/** @type {Object<string, string>} */ values) {
  const client = state.client;
  if (!client) return;
  const previous = state.form;
  state.form = null;
  if (previous) await previous.close().catch(() => {});
  const description = state.description?.kind === state.kind ? state.description : null;
  const known = description ? Object.fromEntries(Object.entries(values).filter(([name]) => description.fields.some((f) => f.name === name))) : values;
  const form = await client.open(state.kind, { values: known, locale: state.locale, describe: true });
  if (!form.description) throw new Error("the server sent no description");
  state.form = form;
  state.description = form.description;
  // The kind's title in this form's language (the others are as initialize gave them).
  const option = Array.from(kindSelect.options).find((candidate) => candidate.value === form.description?.kind);
  if (option) option.text = form.description.title;
  draw(form.description, known);
  form.on(show);
}

/**
 * Builds the form from its description: a labelled input and a live message per field.
 * @param {FormDescription} description
 * @param {Object<string, string>} values
 */
function draw(description, values) {
  document.documentElement.lang = state.locale;
  element("title").textContent = description.title;
  document.title = description.title;
  submitButton.textContent = description.submit.label;
  submitButton.disabled = true;
  submission.textContent = "";
  delete submission.dataset.meaning;
  delete formElement.dataset.done;
  element("fields").replaceChildren(...description.fields.map((field) => fieldElement(field, values[field.name] ?? "")));
}

/**
 * @param {DescribedField} field
 * @param {string} value
 */
function fieldElement(field, value) {
  const wrapper = document.createElement("div");
  wrapper.className = "field";
  wrapper.dataset.field = field.name;
  const label = document.createElement("label");
  label.htmlFor = `field-${field.name}`;
  label.textContent = field.label;
  const input = document.createElement("input");
  const kind = INPUTS[/** @type {keyof INPUTS} */ (field.input)] ?? (field.secret ? INPUTS.password : INPUTS.text);
  input.id = `field-${field.name}`;
  input.name = field.name;
  input.type = kind.type;
  input.setAttribute("autocomplete", kind.autocomplete);
  if ("inputmode" in kind) input.inputMode = kind.inputmode;
  if (field.placeholder !== null) input.placeholder = field.placeholder;
  input.required = field.required;
  // What the person typed wins over the schema's default.
  input.value = value || (field.default ?? "");
  input.setAttribute("aria-describedby", `message-${field.name}`);
  // A field checked with a backend names its checks, so styles and tests can tell it apart.
  if (field.remoteChecks?.length) wrapper.dataset.checks = field.remoteChecks.map((check) => check.name).join(" ");
  input.addEventListener("input", () => {
    // An edit after a success starts the form anew (protocol.md, form.submit).
    delete formElement.dataset.done;
    state.form?.edit(field.name, input.value).catch(() => {});
  });
  const message = document.createElement("p");
  message.className = "message";
  message.id = `message-${field.name}`;
  message.setAttribute("aria-live", "polite");
  const spinner = document.createElement("span");
  spinner.className = "spinner";
  spinner.setAttribute("aria-hidden", "true");
  const text = document.createElement("span");
  text.className = "text";
  message.append(spinner, text);
  wrapper.append(label, input, message);
  if (field.help) {
    const help = document.createElement("p");
    help.className = "help";
    help.id = `help-${field.name}`;
    help.textContent = field.help;
    input.setAttribute("aria-describedby", `message-${field.name} help-${field.name}`);
    wrapper.append(help);
  }
  // A field that takes only some values offers them, and may still be typed into.
  if (field.choices?.length) {
    const list = document.createElement("datalist");
    list.id = `choices-${field.name}`;
    for (const choice of field.choices) {
      const option = document.createElement("option");
      option.value = choice;
      list.append(option);
    }
    input.setAttribute("list", list.id);
    wrapper.append(list);
  }
  // Hidden until the server says otherwise (form.fieldPresenceChanged).
  if (field.conditional) wrapper.hidden = true;
  // A checklist field lists what it asks for; each item ticks as the server says it is met.
  if (field.requirements?.length) wrapper.append(checklistElement(field));
  return wrapper;
}

/**
 * The requirements of a checklist field, judged only once the field has a value.
 * @param {DescribedField} field
 */
function checklistElement(field) {
  const list = document.createElement("ul");
  list.className = "checklist";
  list.setAttribute("aria-label", field.label);
  for (const requirement of field.requirements ?? []) {
    const item = document.createElement("li");
    item.dataset.code = requirement.code;
    item.dataset.met = "pending";
    item.textContent = requirement.message;
    list.append(item);
  }
  return list;
}

/**
 * Ticks a checklist's items: unmet are the codes in `params.unmet`, none once its rules pass
 * (protocol.md, "Checklists"); while the field is empty nothing is judged yet.
 * @param {HTMLElement} wrapper
 * @param {import('./lib/protocol.js').FieldChangedParams} params
 */
function tickChecklist(wrapper, params) {
  const unmet = Array.isArray(params.params.unmet) ? params.params.unmet : null;
  for (const item of wrapper.querySelectorAll(".checklist li")) {
    if (!(item instanceof HTMLElement)) continue;
    const met = params.state === "empty" ? "pending" : String(unmet ? !unmet.includes(item.dataset.code ?? "") : true);
    item.dataset.met = met;
  }
}

/**
 * Shows one event exactly as the server says it.
 * @param {FormEvent} event
 */
function show(event) {
  if (event.type === "fieldChanged") {
    const { field, state: fieldState, message } = event.params;
    const wrapper = formElement.querySelector(`.field[data-field="${CSS.escape(field)}"]`);
    if (!(wrapper instanceof HTMLElement)) return;
    wrapper.dataset.state = fieldState;
    const line = /** @type {HTMLElement} */ (wrapper.querySelector(".message"));
    line.dataset.state = fieldState;
    // The server names a value accepted without a check whose service was down (check.skipped).
    line.dataset.code = event.params.code;
    /** @type {HTMLElement} */ (line.querySelector(".text")).textContent = message;
    wrapper.querySelector("input")?.setAttribute("aria-invalid", String(fieldState === "failed"));
    tickChecklist(wrapper, event.params);
  } else if (event.type === "fieldPresenceChanged") {
    // The form's conditions show or hide a field, or make it required (protocol.md §7).
    const wrapper = formElement.querySelector(`.field[data-field="${CSS.escape(event.params.field)}"]`);
    if (!(wrapper instanceof HTMLElement)) return;
    wrapper.hidden = !event.params.shown;
    const input = wrapper.querySelector("input");
    if (input) input.required = event.params.required;
    wrapper.dataset.required = String(event.params.required);
  } else if (event.type === "submitEnabledChanged") {
    submitButton.disabled = !event.params.enabled;
  } else {
    showSubmission(event.params);
  }
}

/** @param {import('./lib/protocol.js').SubmissionChangedParams} params */
function showSubmission(params) {
  const description = state.description;
  const known = description?.submit.states.find((candidate) => candidate.state === params.state);
  const meaning = known?.meaning ?? params.state;
  submission.dataset.meaning = meaning;
  // A success is final until the person edits (the server keeps submit disabled meanwhile).
  if (meaning === "succeeded") formElement.dataset.done = "true";
  if (meaning === "failed") {
    submission.textContent = params.message ?? known?.message ?? params.state;
  } else if (meaning === "succeeded") {
    submission.textContent = [known?.message ?? params.state, successDetail(params)].filter(Boolean).join(": ");
  } else {
    submission.textContent = known?.message ?? "";
  }
}

/**
 * Who was registered, logged in or saved; never a token.
 * @param {import('./lib/protocol.js').SubmissionChangedParams} params
 */
function successDetail(params) {
  if (params.friend) return [params.friend.firstName, params.friend.lastName].filter(Boolean).join(" ");
  const result = /** @type {{username?: unknown} | undefined} */ (params.account ?? params.result);
  return result?.username ? String(result.username) : "";
}

/** @param {string} text */
function showProblem(text) {
  submission.dataset.meaning = "failed";
  submission.textContent = chrome().failedToOpen + text;
}

function chrome() {
  return CHROME[/** @type {keyof CHROME} */ (state.locale)] ?? CHROME.en;
}

formElement.addEventListener("submit", (event) => {
  event.preventDefault();
  if (submitButton.disabled || !state.form) return;
  state.form.submit().catch(() => {});
});

kindSelect.addEventListener("change", () => {
  state.kind = kindSelect.value;
  openForm({}).catch((error) => showProblem(String(error)));
});

localeSelect.addEventListener("change", () => {
  state.locale = localeSelect.value;
  translatePage();
  switchLanguage().catch((error) => showProblem(String(error)));
});

/**
 * A new session in the chosen language, so that every kind's title is in it too (initialize
 * describes the kinds once, in its locale): it opens the form with what was typed, then the old
 * session is closed, quietly, as it is no longer the page's.
 */
async function switchLanguage() {
  const previous = state.client;
  const values = typedValues();
  /** @type {SignupClient} */
  let client;
  try {
    client = await connectWebSocket(serverURL());
  } catch {
    return openForm(values);
  }
  const info = await client.initialize({ locale: state.locale, clientName: "signup-rpc web page" });
  state.client = client;
  state.form = null;
  client.onClose(() => connectionLost(client));
  state.kinds = info.capabilities.forms.map((form) => ({ kind: form.kind, title: "title" in form ? String(form.title) : form.kind }));
  listKinds(state.kinds);
  await openForm(values);
  previous?.close();
}

connect();
