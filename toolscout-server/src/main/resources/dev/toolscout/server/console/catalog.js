// Catalog: search and filter the tools and skills a principal may see; a tool's full definition, source and
// status; for admins, who can see a tool and what another principal sees (the access policy made visible).
import { get, query } from './api.js';
import { h, field, select, table, badge, json, errorBox, heading, principalText, fmt, status, loading } from './ui.js';

const PAGE = 100;

export async function render(main, ctx) {
  // #catalog?source=NAME&q=TEXT: a link from another page (a server's tools)
  const linked = new URLSearchParams(location.hash.split('?')[1] || '');
  const state = { q: linked.get('q') || '', kind: '', source: linked.get('source') || '', category: '', access: '',
    side_effect: '', as: '', offset: 0 };
  let principals = [];
  if (ctx.admin) {
    principals = (await get('/v1/principals')).principals;
  }
  const results = h('section', { 'aria-labelledby': 'cat-results', class: 'results' });
  const details = h('section', { 'aria-label': 'Details', class: 'details', id: 'details' });

  const q = h('input', { type: 'search', name: 'q', placeholder: 'e.g. send an email', maxlength: '16384',
    value: state.q });
  const kind = select('kind', [['', 'Tools and skills'], ['tool', 'Tools'], ['skill', 'Skills']]);
  const source = select('source', [['', 'Any source']]);
  const category = select('category', [['', 'Any category']]);
  const access = select('access', [['', 'Any access'], 'execute', 'propose', 'blocked']);
  const effect = select('side_effect', [['', 'Any side effect'], 'read', 'write', 'delete']);
  const as = ctx.admin ? select('as', [['', 'Me'], ...principals.map((p, i) => [String(i),
    `${principalText(p)} (${p.tools} tools)`])]) : null;
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Search the catalog' },
    field('Search', q),
    field('Kind', kind),
    field('Source', source),
    field('Category', category),
    field('AI access', access),
    field('Side effect', effect),
    as ? field('What can this principal see?', as, 'Admins: the catalog as another key\'s principal sees it') : null,
    h('button', { type: 'submit' }, 'Search'));

  async function load() {
    const p = state.as === '' ? {} : principals[Number(state.as)];
    results.replaceChildren(loading('Loading the catalog…'));
    let page;
    try {
      page = await get('/v1/catalog' + query({ q: state.q, kind: state.kind, source: state.source,
        category: state.category, access: state.access, side_effect: state.side_effect,
        user: p.user, group: p.group, space: p.space, offset: state.offset, limit: PAGE }));
    } catch (e) {
      results.replaceChildren(errorBox(e));
      return;
    }
    fill(source, 'Any source', page.facets.sources, state.source);
    fill(category, 'Any category', page.facets.categories, state.category);
    const rows = page.items.map((t) => h('tr', {},
      h('td', {}, h('button', { type: 'button', class: 'link', onclick: () => open(t, p, ctx, details) }, t.name)),
      h('td', {}, t.kind),
      h('td', {}, t.source),
      h('td', {}, t.category || ''),
      h('td', {}, t.ai_access ? badge(t.ai_access) : ''),
      h('td', {}, t.side_effect ? badge(t.side_effect) : ''),
      h('td', {}, badge(t.status)),
      h('td', { class: 'num' }, t.score === undefined ? '' : fmt(t.score)),
      h('td', { class: 'desc' }, t.description,
        t.missing_tools ? h('div', { class: 'missing' }, `${t.status === 'not offered' ? 'Not offered: ' : ''}`
          + `missing tools: ${t.missing_tools.join(', ')}`) : null)));
    const from = page.total === 0 ? 0 : page.offset + 1;
    const to = page.offset + page.items.length;
    const prev = h('button', { type: 'button', disabled: page.offset === 0 }, 'Previous');
    const next = h('button', { type: 'button', disabled: to >= page.total }, 'Next');
    prev.addEventListener('click', () => { state.offset = Math.max(0, state.offset - PAGE); load(); });
    next.addEventListener('click', () => { state.offset += PAGE; load(); });
    results.replaceChildren(
      h('h2', { id: 'cat-results' }, `${page.total} ${page.total === 1 ? 'item' : 'items'}`
        + ` visible to ${principalText(page.principal)}`),
      table(`Catalog, ${from}-${to} of ${page.total}`, ['Name', 'Kind', 'Source', 'Category', 'Access',
        'Side effect', 'Status', 'Score', 'Description'], rows),
      h('div', { class: 'pager' }, prev, h('span', {}, `${from}-${to} of ${page.total}`), next));
    status(`${page.total} items`);
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    Object.assign(state, { q: q.value.trim(), kind: kind.value, source: source.value, category: category.value,
      access: access.value, side_effect: effect.value, as: as ? as.value : '', offset: 0 });
    details.replaceChildren();
    load();
  });
  main.replaceChildren(...heading('Catalog', 'The tools and skills you may see: search by meaning and words, '
    + 'filter, and open one for its full definition.'), form, h('div', { class: 'split' }, results, details));
  await load();
}

function fill(sel, any, counts, value) {
  sel.replaceChildren(h('option', { value: '' }, any),
    ...Object.entries(counts).map(([k, n]) => h('option', { value: k, selected: k === value }, `${k} (${n})`)));
}

async function open(item, viewer, ctx, details) {
  details.replaceChildren(h('h2', { tabindex: '-1' }, item.name), loading());
  const parts = [h('h2', { tabindex: '-1' }, item.name),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Kind'), h('dd', {}, item.kind),
      h('dt', {}, 'Source'), h('dd', {}, `${item.source} (${item.source_kind})`),
      h('dt', {}, 'Status'), h('dd', {}, badge(item.status)),
      item.ai_access ? [h('dt', {}, 'AI access'), h('dd', {}, item.ai_access)] : null,
      item.side_effect ? [h('dt', {}, 'Side effect'), h('dd', {}, item.side_effect)] : null)];
  try {
    if (item.kind === 'skill') {
      const skill = await get('/v1/skills/' + encodeURIComponent(item.name));
      parts.push(h('h3', {}, 'Definition'), json(skill));
    } else {
      const spec = await get('/v1/tools/' + encodeURIComponent(item.name));
      if (ctx.admin) {
        const who = await get('/v1/tools/' + encodeURIComponent(item.name) + '/access');
        parts.push(h('h3', {}, 'Who can see this tool'),
          who.principals.length === 0 ? h('p', {}, 'The API keys name no principals.')
            : table(`Principals of the API keys and ${item.name}`, ['Principal', 'Sees it'],
              who.principals.map((p) => h('tr', {}, h('td', {}, principalText(p)),
                h('td', {}, p.visible ? badge('yes', 'ok') : badge('no', 'denied'))))));
      }
      parts.push(h('h3', {}, 'Definition'), json(spec));
    }
  } catch (e) {
    parts.push(errorBox(e));
  }
  details.replaceChildren(...parts);
  details.querySelector('h2').focus();
  void viewer;
}
