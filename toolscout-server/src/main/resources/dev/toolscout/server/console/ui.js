// Small DOM helpers. Text always goes in as text (textContent), never as HTML: tool descriptions, arguments and
// error messages come from upstream servers and callers.
let ids = 0;

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) {
      continue;
    }
    if (k.startsWith('on')) {
      el.addEventListener(k.substring(2), v);
    } else if (k === 'class') {
      el.className = v;
    } else if (k === 'value') {
      el.value = v;
    } else {
      el.setAttribute(k, v === true ? '' : v);
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) {
      continue;
    }
    if (Array.isArray(c)) {
      append(el, c);
    } else {
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }
}

export function uid(prefix) {
  ids += 1;
  return `${prefix}-${ids}`;
}

/** A labelled control: the label's for names the control's id. */
export function field(label, control, hint) {
  if (!control.id) {
    control.id = uid('f');
  }
  const hintEl = hint ? h('span', { class: 'hint', id: control.id + '-hint' }, hint) : null;
  if (hintEl) {
    control.setAttribute('aria-describedby', hintEl.id);
  }
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintEl);
}

export function select(name, options, value) {
  const s = h('select', { name });
  for (const o of options) {
    const [v, text] = Array.isArray(o) ? o : [o, o];
    const opt = h('option', { value: v }, text);
    if (v === value) {
      opt.selected = true;
    }
    s.append(opt);
  }
  return s;
}

/** A table with a caption (for screen readers) and column headers. */
export function table(caption, headers, rows) {
  return h('div', { class: 'table-wrap' },
    h('table', {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows)));
}

export function badge(text, kind) {
  return h('span', { class: `badge badge-${kind || text}` }, text);
}

export function json(value) {
  return h('pre', { class: 'json', tabindex: '0' }, JSON.stringify(value, null, 2));
}

// What a section shows until its data arrives, so a page is never an empty list first (a busy live region: a
// screen reader hears "Loading…", and the console test waits for it to go)
export function loading(text) {
  return h('p', { class: 'loading', role: 'status', 'aria-busy': 'true' }, text || 'Loading…');
}

export function errorBox(e) {
  return h('p', { class: 'error', role: 'alert' }, e.message || String(e));
}

export function heading(text, sub) {
  return sub ? [h('h1', { tabindex: '-1' }, text), h('p', { class: 'lead' }, sub)] : [h('h1', { tabindex: '-1' }, text)];
}

export function status(text) {
  const s = document.getElementById('status');
  s.textContent = text;
}

export function principalText(p) {
  if (!p) {
    return 'anonymous';
  }
  const parts = [];
  if (p.user) parts.push(`user ${p.user}`);
  if (p.group) parts.push(`group ${p.group}`);
  if (p.space) parts.push(`space ${p.space}`);
  return parts.length ? parts.join(', ') : 'anonymous';
}

export function fmt(n, digits) {
  return typeof n === 'number' ? n.toLocaleString('en-US', { maximumFractionDigits: digits ?? 3 }) : '';
}
