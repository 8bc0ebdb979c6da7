// Usage: the seed's success metrics over time as charts (inline SVG drawn here, no chart library) and the recent
// requests with their selection and the tools called, from the agent loop's usage records
// (GET /v1/usage/requests, admin only: the records hold other people's messages).
import { get, query, ApiError } from './api.js';
import { h, heading, errorBox, table, badge, fmt, principalText, loading } from './ui.js';

const SVG = 'http://www.w3.org/2000/svg';
const RANGES = [['1', 'Last 24 hours'], ['7', 'Last 7 days'], ['30', 'Last 30 days']];

export async function render(main, ctx) {
  main.replaceChildren(...heading('Usage', 'How well the selection serves the agent: the called tools that were '
    + 'pre-selected, discovery, tokens saved and latency, per request the agent loop ran.'));
  if (!ctx.admin) {
    main.append(h('p', { class: 'note' }, 'Usage records hold other people\'s messages: admin keys only. Your key\'s '
      + 'role is ' + ctx.me.role + '.'));
    return;
  }
  const range = h('select', { id: 'usage-range', name: 'range' },
    RANGES.map(([v, t]) => h('option', { value: v, selected: v === '7' }, t)));
  const body = h('div', {}, loading());
  main.append(h('div', { class: 'filters' }, h('div', { class: 'field compact' },
    h('label', { for: 'usage-range' }, 'Period'), range)), body);
  async function load() {
    const since = new Date(Date.now() - Number(range.value) * 86_400_000).toISOString();
    let r;
    try {
      r = await get('/v1/usage/requests' + query({ since, limit: 1000 }));
    } catch (e) {
      body.replaceChildren(e instanceof ApiError && e.status === 404
        ? h('p', { class: 'note' }, 'This server keeps no usage records: they come from the agent loop.')
        : errorBox(e));
      return;
    }
    body.replaceChildren(...view(r.requests, Number(range.value)));
    const linked = body.querySelector('tr.linked');
    if (linked) {
      linked.setAttribute('aria-current', 'true');
      linked.scrollIntoView({ block: 'center' });
    }
  }
  range.addEventListener('change', load);
  await load();
}

/**
 * The metrics of a set of records, as UsageReport (toolscout-agent) counts them: per request, the used tools are the
 * distinct tools called (a "not found" call and the discovery tools apart, ToolScout's own memory tools counted);
 * recall is the share of them the first selection held (or the router ran), precision the share of the selected
 * tools (discovery apart) that were used.
 */
function metrics(records) {
  let used = 0;
  let usedSelected = 0;
  let routed = 0;
  let selected = 0;
  let withDiscovery = 0;
  let saved = 0;
  let latency = 0;
  for (const r of records) {
    const sel = new Set((r.selection || []).map((t) => t.name).filter((n) => n && !n.startsWith(DISCOVERY)));
    const usedHere = new Map();
    let found = false;
    for (const c of r.calls || []) {
      if (c.tool === 'tool_discovery__find') found = true;
      if (!c.tool || c.tool.startsWith(DISCOVERY) || c.outcome === 'not_found') continue;
      usedHere.set(c.tool, usedHere.get(c.tool) || c.origin === 'route');
    }
    selected += sel.size;
    used += usedHere.size;
    for (const [tool, byRoute] of usedHere) {
      if (sel.has(tool)) usedSelected++;
      else if (byRoute) routed++;
    }
    if (found) withDiscovery++;
    saved += (r.tokens && r.tokens.saved) || 0;
    latency += (r.latency_ms && r.latency_ms.total) || 0;
  }
  return {
    requests: records.length,
    recall: used === 0 ? null : (usedSelected + routed) / used,
    precision: selected === 0 ? null : usedSelected / selected,
    discovery: records.length === 0 ? null : withDiscovery / records.length,
    saved,
    latency: records.length === 0 ? null : latency / records.length,
  };
}

const DISCOVERY = 'tool_discovery__';

function view(records, days) {
  const all = metrics(records);
  const bucketMs = days <= 1 ? 3_600_000 : 86_400_000;
  const start = Math.floor((Date.now() - days * 86_400_000) / bucketMs) * bucketMs;
  const buckets = [];
  for (let t = start; t <= Date.now(); t += bucketMs) buckets.push({ t, records: [] });
  for (const r of records) {
    const i = Math.floor((Date.parse(r.at) - start) / bucketMs);
    if (i >= 0 && i < buckets.length) buckets[i].records.push(r);
  }
  const series = buckets.map((b) => ({ t: b.t, ...metrics(b.records) }));
  const label = (t) => (bucketMs < 86_400_000 ? new Date(t).toLocaleTimeString([], { hour: '2-digit' })
    : new Date(t).toLocaleDateString([], { month: 'short', day: 'numeric' }));
  const pct = (v) => (v === null ? '–' : `${fmt(v * 100, 1)}%`);
  return [
    h('dl', { class: 'facts tiles' },
      h('dt', {}, 'Requests'), h('dd', { id: 'usage-requests' }, String(all.requests)),
      h('dt', {}, 'Recall: used tools that were pre-selected'), h('dd', { id: 'usage-recall' }, pct(all.recall)),
      h('dt', {}, 'Precision: selected tools that were used'), h('dd', { id: 'usage-precision' }, pct(all.precision)),
      h('dt', {}, 'Requests that used discovery'), h('dd', { id: 'usage-discovery' }, pct(all.discovery)),
      h('dt', {}, 'Tokens saved'), h('dd', {}, fmt(all.saved, 0)),
      h('dt', {}, 'Mean latency'), h('dd', {}, all.latency === null ? '–' : `${fmt(all.latency, 0)} ms`)),
    h('div', { class: 'charts' },
      chart('Recall: share of used tools that were pre-selected', series, (s) => s.recall, label, 1, pct),
      chart('Precision: share of selected tools that were used', series, (s) => s.precision, label, 1, pct),
      chart('Discovery rate (requests that called tool_discovery__find)', series, (s) => s.discovery, label, 1, pct),
      chart('Tokens saved', series, (s) => (s.requests ? s.saved : null), label, null, (v) => fmt(v, 0)),
      chart('Mean latency per request (ms)', series, (s) => s.latency, label, null, (v) => fmt(v, 0))),
    h('h2', {}, 'Recent requests'),
    records.length === 0 ? h('p', {}, 'No requests in this period.')
      : table('Recent requests, newest first', ['When', 'Principal', 'Message', 'Selected', 'Tools called',
        'Status'], records.slice(-50).reverse().map((r) => h('tr', { 'data-run': r.id,
          class: r.id === linkedRun() ? 'linked' : null },
        h('td', {}, new Date(r.at).toLocaleString()),
        h('td', {}, principalText(r.principal)),
        h('td', { class: 'desc' }, r.message),
        h('td', { class: 'desc' }, (r.selection || []).slice(0, 5).map((s) => s.name).join(', ')
          + ((r.selection || []).length > 5 ? ` +${r.selection.length - 5}` : '')),
        h('td', {}, (r.calls || []).map((c) => h('div', {}, `${c.tool} `, badge(c.origin, 'route'), ' ',
          badge(c.outcome, c.outcome === 'ok' ? 'ok' : 'denied')))),
        h('td', {}, badge(r.status, r.status === 'done' ? 'ok' : r.status === 'awaiting_approval' ? 'pending'
          : 'denied'))))),
  ];
}

/** The run the location names (#usage?run=ID, a link from the Approvals page), or null. */
function linkedRun() {
  const q = location.hash.indexOf('?');
  return q < 0 ? null : new URLSearchParams(location.hash.substring(q + 1)).get('run');
}

/** A line chart of one metric per time bucket; buckets without data leave a gap. */
function chart(title, series, pick, label, max, show) {
  const W = 360;
  const H = 150;
  const L = 44;
  const B = 22;
  const values = series.map(pick);
  const known = values.filter((v) => v !== null && v !== undefined);
  const top = max ?? Math.max(1, ...known) * 1.1;
  const x = (i) => L + (series.length <= 1 ? 0 : (i * (W - L - 8)) / (series.length - 1));
  const y = (v) => H - B - (v / top) * (H - B - 8);
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${title}: ${known.length} `
    + `periods with data${known.length ? `, latest ${show(known[known.length - 1])}` : ''}` });
  svg.append(el('line', { class: 'axis', x1: L, y1: H - B, x2: W - 4, y2: H - B }),
    el('line', { class: 'axis', x1: L, y1: 6, x2: L, y2: H - B }),
    text(L - 4, y(top) + 4, show(top), 'end'), text(L - 4, H - B + 4, show(0), 'end'),
    text(L, H - 6, label(series[0].t), 'start'), text(W - 4, H - 6, label(series[series.length - 1].t), 'end'));
  let d = '';
  values.forEach((v, i) => {
    if (v === null || v === undefined) return;
    d += `${d && values[i - 1] !== null && values[i - 1] !== undefined ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
    const dot = el('circle', { class: 'dot', cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3 });
    dot.append(el('title', {}, `${label(series[i].t)}: ${show(v)}`));
    svg.append(dot);
  });
  if (d) svg.prepend(el('path', { class: 'line', d }));
  return h('figure', { class: 'chart' }, h('figcaption', {}, title), svg,
    known.length === 0 ? h('p', { class: 'hint' }, 'No data in this period.') : null);
}

function el(tag, attrs, textContent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (textContent) e.textContent = textContent;
  return e;
}

function text(xv, yv, s, anchor) {
  return el('text', { x: xv, y: yv, 'text-anchor': anchor }, s);
}
