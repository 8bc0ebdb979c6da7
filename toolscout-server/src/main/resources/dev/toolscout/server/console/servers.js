// MCP servers: each upstream server's status (connecting, ready, degraded, down, stopped, disabled), last error,
// restarts and tools, refreshed every few seconds; admins add, disable, enable and remove servers. Listing needs an admin key too: the
// servers' endpoints are operator data.
import { get, post, del, ApiError } from './api.js';
import { h, field, select, table, badge, errorBox, heading, status, loading } from './ui.js';

const REFRESH_MS = 3000;

export async function render(main, ctx) {
  main.replaceChildren(...heading('MCP servers', 'The upstream MCP servers whose tools are in the catalog.'));
  if (!ctx.admin) {
    main.append(h('p', { class: 'note' }, 'The servers, their endpoints and errors are shown to admin keys only '
      + '(GET /v1/servers). Your key\'s role is ' + ctx.me.role + '.'));
    return;
  }
  const list = h('section', { 'aria-label': 'Servers', class: 'servers', 'aria-live': 'polite' }, loading());
  const addForm = form(async () => refresh());
  main.append(list, addForm);

  async function refresh() {
    let r;
    try {
      r = await get('/v1/servers');
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        list.replaceChildren(h('p', {}, 'This server manages no upstream MCP servers.'));
        return;
      }
      list.replaceChildren(errorBox(e));
      return;
    }
    const rows = r.servers.map((s) => {
      const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Remove ${s.name}` }, 'Remove');
      remove.addEventListener('click', async () => {
        if (!window.confirm(`Remove the MCP server ${s.name} and its ${s.tools} tools?`)) {
          return;
        }
        try {
          await del('/v1/servers/' + encodeURIComponent(s.name));
          status(`Removed ${s.name}`);
        } catch (e) {
          status(e.message);
        }
        refresh();
      });
      // disabling keeps the registration (and its flag across restarts); enabling connects it again
      const off = s.status === 'disabled';
      const toggle = h('button', { type: 'button', class: off ? 'primary' : null,
        'aria-label': `${off ? 'Enable' : 'Disable'} ${s.name}` }, off ? 'Enable' : 'Disable');
      toggle.addEventListener('click', async () => {
        toggle.disabled = true;
        try {
          const r = await post(`/v1/servers/${encodeURIComponent(s.name)}/${off ? 'enable' : 'disable'}`);
          status(`${s.name}: ${r.status}`);
        } catch (e) {
          status(e.message);
        }
        refresh();
      });
      return h('tr', { 'data-server': s.name },
        h('td', {}, s.name),
        h('td', { class: 'server-status' }, badge(s.status)),
        h('td', {}, s.transport),
        h('td', { class: 'endpoint' }, s.endpoint),
        h('td', { class: 'num' }, h('a', { href: `#catalog?source=${encodeURIComponent(s.prefix)}`,
          'aria-label': `${s.tools} tools of ${s.name} in the catalog` }, String(s.tools))),
        h('td', { class: 'num' }, String(s.restarts)),
        h('td', { class: 'endpoint error-text' }, s.last_error || ''),
        h('td', {}, new Date(s.since).toLocaleString()),
        h('td', { class: 'actions' }, toggle, remove));
    });
    const focused = document.activeElement && list.contains(document.activeElement)
      ? document.activeElement.getAttribute('aria-label') : null;
    list.replaceChildren(h('h2', {}, `${r.count} ${r.count === 1 ? 'server' : 'servers'}`),
      table('Upstream MCP servers', ['Name', 'Status', 'Transport', 'Endpoint', 'Tools', 'Restarts',
        'Last error', 'Since', 'Actions'], rows));
    if (focused) {
      const again = list.querySelector(`[aria-label="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  }

  await refresh();
  ctx.timers.push(setInterval(refresh, REFRESH_MS));
}

function form(done) {
  const name = h('input', { type: 'text', name: 'name', required: true, maxlength: '48' });
  const kind = select('kind', [['url', 'URL (Streamable HTTP or SSE)'], ['command', 'Command (stdio)']]);
  const endpoint = h('input', { type: 'text', name: 'endpoint', required: true,
    placeholder: 'https://mcp.example.com/mcp, or: node server.js' });
  const transport = select('transport', [['http', 'Streamable HTTP'], ['sse', 'SSE']]);
  const offline = h('input', { type: 'checkbox', name: 'allow_offline' });
  const result = h('div', { 'aria-live': 'polite' });
  const f = h('form', { class: 'card add-server', 'aria-labelledby': 'add-title' },
    h('h2', { id: 'add-title' }, 'Add a server'),
    field('Name', name, 'Its tools are named <prefix>__<tool>'),
    field('Kind', kind),
    field('URL or command line', endpoint, 'A command runs on this host: the server must run with '
      + '--allow-remote-stdio'),
    field('Transport (URL only)', transport),
    h('div', { class: 'field check' }, offline, h('label', { for: (offline.id = 'allow-offline') },
      'Store it even if it does not answer now')),
    h('button', { type: 'submit' }, 'Add server'),
    result);
  f.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = { name: name.value.trim() };
    if (kind.value === 'url') {
      body.url = endpoint.value.trim();
      body.transport = transport.value;
    } else {
      const words = endpoint.value.trim().split(/\s+/);
      body.command = words[0];
      if (words.length > 1) body.args = words.slice(1);
    }
    if (offline.checked) body.allow_offline = true;
    result.replaceChildren(h('p', {}, 'Connecting…'));
    try {
      const s = await post('/v1/servers', body);
      result.replaceChildren(h('p', { class: 'ok' }, `Added ${s.name}: ${s.status}, ${s.tools} tools`));
      f.reset();
    } catch (e) {
      result.replaceChildren(errorBox(e));
    }
    done();
  });
  return f;
}
