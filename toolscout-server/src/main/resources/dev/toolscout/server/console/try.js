// Try a message: pick a principal (admins) and a conversation, type a message, and see what a model would be
// given: the route, the selection with scores and reasons, the tools left out, the tokens saved, and the
// rendered Anthropic / OpenAI / MCP form.
import { get, post, query } from './api.js';
import { h, field, select, table, badge, json, errorBox, heading, principalText, fmt, status } from './ui.js';

export const DEMO = 'Schedule a meeting for tomorrow at 2pm';

export async function render(main, ctx) {
  let principals = [];
  if (ctx.admin) {
    principals = (await get('/v1/principals')).principals;
  }
  const who = ctx.admin ? select('principal', [['', `Me (${principalText(ctx.me.principal)})`],
    ...principals.map((p, i) => [String(i), principalText(p)])]) : null;
  const conversation = h('input', { type: 'text', name: 'conversation', pattern: '[A-Za-z0-9._:\\-]{1,128}',
    placeholder: 'optional, e.g. c1', maxlength: '128' });
  const message = h('textarea', { name: 'message', rows: '3', required: true, maxlength: '16384' });
  message.value = DEMO;
  const k = h('input', { type: 'number', name: 'k', min: '1', max: '50', value: '10' });
  const out = h('section', { 'aria-label': 'Result', class: 'result' });
  const form = h('form', { class: 'card try' },
    who ? field('Principal', who) : h('p', {}, `As ${principalText(ctx.me.principal)} (your key's principal)`),
    field('Conversation', conversation, 'Its active skills\' tools are pinned'),
    field('Message', message),
    field('How many tools (k)', k),
    h('button', { type: 'submit' }, 'Select tools'));

  function request(format) {
    const body = { message: message.value, k: Number(k.value) || 10 };
    if (conversation.value.trim()) body.conversation_id = conversation.value.trim();
    if (who && who.value !== '') body.principal = principals[Number(who.value)];
    if (format) body.format = format;
    return body;
  }

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    out.replaceChildren(h('p', {}, 'Selecting…'));
    let r;
    try {
      r = await post('/v1/select', request());
    } catch (e) {
      out.replaceChildren(errorBox(e));
      return;
    }
    const chosen = new Set(r.selected.map((t) => t.name));
    let leftOut = [];
    try {
      // the best matches the selection left out: a search inside what the principal may see
      const p = who && who.value !== '' ? principals[Number(who.value)] : {};
      const found = await get('/v1/catalog' + query({ q: message.value.substring(0, 2000), kind: 'tool',
        user: p.user, group: p.group, space: p.space, limit: 50 }));
      leftOut = found.items.filter((t) => !chosen.has(t.name)).slice(0, 10);
    } catch {
      leftOut = [];
    }
    // the router's decision (POST /v1/route's RouteDecision) when this server has one
    const decision = r.route && typeof r.route === 'object' ? r.route : null;
    const route = decision ? decision.route : typeof r.route === 'string' ? r.route : null;
    const tabs = renderedTabs(request);
    // through h(), which leaves out the parts that are null (no router decision) and flattens the arrays
    out.replaceChildren(h('div', {},
      h('h2', {}, 'Selection'),
      h('p', { class: 'reason' }, r.reason),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Route'), h('dd', { id: 'route' }, route ? [badge(route, 'route'),
          decision && decision.target ? ` → ${decision.target}` : '', decision ? ` ${decision.reason}` : '']
          : 'tool filter (no router on this server)'),
        h('dt', {}, 'Tokens'), h('dd', { id: 'tokens' }, `${fmt(r.tokens.selected, 0)} for the selected definitions, `
          + `${fmt(r.tokens.all, 0)} for all visible tools: ${fmt(r.tokens.saved_pct, 1)}% saved`),
        h('dt', {}, 'Left out'), h('dd', {}, `${r.excluded_count} tools`
          + (r.discovery_suggested ? ', reachable through tool_discovery__find' : '')),
        r.active_skills && r.active_skills.length ? [h('dt', {}, 'Active skills'),
          h('dd', {}, r.active_skills.join(', '))] : null,
        r.suggested_skill ? [h('dt', {}, 'Suggested skill'),
          h('dd', {}, `${r.suggested_skill.name}: ${r.suggested_skill.why}`)] : null),
      table('Selected tools, best first', ['#', 'Tool', 'Score', 'Why'], r.selected.map((t, i) => h('tr', {},
        h('td', { class: 'num' }, String(i + 1)),
        h('td', {}, t.name, r.core_included.includes(t.name) ? [' ', badge('core', 'core')] : null),
        h('td', { class: 'num' }, fmt(t.score)),
        h('td', {}, t.reason)))),
      decision && decision.evidence && decision.evidence.length ? [h('h3', {}, 'Route evidence'),
        table(`What the router compared (${decision.score} similarity, model ${decision.model})`,
          ['Kind', 'Name', 'Cosine', 'Text'], decision.evidence.map((e) => h('tr', {}, h('td', {}, e.kind),
            h('td', {}, e.name), h('td', { class: 'num' }, fmt(e.cosine)), h('td', { class: 'desc' }, e.text))))]
        : null,
      h('h3', {}, 'Best matches left out'),
      leftOut.length === 0 ? h('p', {}, 'None: every match the search found was selected.')
        : table('Tools the search found that the selection left out', ['Tool', 'Search score', 'Description'],
          leftOut.map((t) => h('tr', {}, h('td', {}, t.name), h('td', { class: 'num' }, fmt(t.score)),
            h('td', { class: 'desc' }, t.description)))),
      h('h3', {}, 'What the model is sent'),
      tabs));
    status(`Selected ${r.selected.length} tools`);
  });

  main.replaceChildren(...heading('Try a message', 'What a model would be given for one message: ToolScout '
    + 'selects inside what the principal may see.'), form, out);
}

function renderedTabs(request) {
  const formats = [['anthropic', 'Anthropic'], ['openai', 'OpenAI'], ['mcp', 'MCP tools/list']];
  const panel = h('div', { role: 'tabpanel', id: 'rendered-panel', tabindex: '0', class: 'tabpanel' },
    'Choose a form above.');
  const buttons = formats.map(([f, label]) => h('button', { type: 'button', role: 'tab', id: `tab-${f}`,
    'aria-selected': 'false', 'aria-controls': 'rendered-panel', 'data-format': f }, label));
  async function choose(btn) {
    buttons.forEach((b) => {
      b.setAttribute('aria-selected', String(b === btn));
      b.tabIndex = b === btn ? 0 : -1;
    });
    panel.setAttribute('aria-labelledby', btn.id);
    panel.replaceChildren('Rendering…');
    try {
      panel.replaceChildren(json(await post('/v1/select', request(btn.dataset.format))));
    } catch (e) {
      panel.replaceChildren(errorBox(e));
    }
  }
  buttons.forEach((b, i) => {
    b.tabIndex = i === 0 ? 0 : -1;
    b.addEventListener('click', () => choose(b));
    b.addEventListener('keydown', (ev) => {
      const d = ev.key === 'ArrowRight' ? 1 : ev.key === 'ArrowLeft' ? -1 : 0;
      if (d) {
        const next = buttons[(i + d + buttons.length) % buttons.length];
        next.focus();
        choose(next);
      }
    });
  });
  return h('div', { class: 'tabs' }, h('div', { role: 'tablist', 'aria-label': 'Rendered form' }, buttons), panel);
}
