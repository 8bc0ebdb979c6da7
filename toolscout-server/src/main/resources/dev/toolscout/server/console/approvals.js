// Approvals: the PROPOSE calls waiting for a decision, with their arguments (secrets masked by the server, each
// mask with a digest that tells two values apart) and where they were made (channel and run), approve or deny
// for admins (never one's own request: the server refuses it), and the decided ones as an audit trail; each with
// the agent run that asked for it and that run's state.
import { get, post, ApiError } from './api.js';
import { h, table, badge, json, errorBox, heading, status, loading } from './ui.js';

const REFRESH_MS = 3000;

export async function render(main, ctx) {
  main.replaceChildren(...heading('Approvals', 'Tool calls that need a person\'s decision before they run. '
    + 'Nobody approves their own request.'));
  if (!ctx.admin) {
    main.append(h('p', { class: 'note' }, 'Approvals are listed and decided by admin keys (and by the operator with '
      + '`toolscout approvals`). Your key\'s role is ' + ctx.me.role + '.'));
    return;
  }
  const queue = QUEUE;
  const pending = h('section', { 'aria-labelledby': 'pending-title' }, loading());
  const decided = h('section', { 'aria-labelledby': 'decided-title' });
  main.append(pending, decided);
  let shown = '';

  async function refresh() {
    let all;
    try {
      all = (await queue.list()).approvals;
    } catch (e) {
      pending.replaceChildren(errorBox(e));
      return;
    }
    const fingerprint = JSON.stringify(all);
    if (fingerprint === shown) {
      return; // unchanged: keep the focus where it is
    }
    shown = fingerprint;
    const open = all.filter((a) => a.status === 'pending');
    const done = all.filter((a) => a.status !== 'pending')
      .sort((a, b) => (b.decided_at || b.created_at).localeCompare(a.decided_at || a.created_at));
    pending.replaceChildren(h('h2', { id: 'pending-title' }, `Pending (${open.length})`),
      open.length === 0 ? h('p', {}, 'Nothing waits for a decision.')
        : table('Pending requests', ['Request', 'Tool', 'Requested by', 'Channel', 'Arguments', 'Since',
          'Agent run', 'Decision'],
          open.map((a) => h('tr', { 'data-approval': a.id },
            h('td', {}, a.id),
            h('td', {}, a.tool),
            h('td', {}, a.requester),
            h('td', { class: 'channel' }, channel(a)),
            h('td', {}, json(a.arguments)),
            h('td', {}, new Date(a.created_at).toLocaleString()),
            h('td', { class: 'run' }, run(a)),
            h('td', { class: 'actions' },
              decide(queue, a, 'approve', a.requester === callerId(ctx), refresh),
              decide(queue, a, 'deny', false, refresh))))));
    decided.replaceChildren(h('h2', { id: 'decided-title' }, `Decided (${done.length})`),
      done.length === 0 ? h('p', {}, 'No decisions yet.')
        : table('Audit trail: decided requests, newest first', ['Request', 'Tool', 'Requested by', 'Status',
          'Decided by', 'When', 'Agent run'], done.map((a) => h('tr', { 'data-approval': a.id },
          h('td', {}, a.id), h('td', {}, a.tool), h('td', {}, a.requester), h('td', {}, badge(a.status)),
          h('td', {}, a.decided_by || ''), h('td', {}, a.decided_at ? new Date(a.decided_at).toLocaleString() : ''),
          h('td', { class: 'run' }, run(a))))));
  }

  await refresh();
  ctx.timers.push(setInterval(refresh, REFRESH_MS));
}

/**
 * The agent run that asked for an approval, as it stands (the list refreshes, so a run that goes on after the
 * decision shows done here), linked to its request on the Usage page; a call the MCP gateway held has none.
 */
function run(a) {
  if (!a.run) return h('span', { class: 'hint' }, 'none: an MCP client\'s call');
  return h('span', {}, h('a', { href: `#usage?run=${encodeURIComponent(a.run.id)}`,
    'aria-label': `Agent run ${a.run.id}: ${a.run.status.replace('_', ' ')}` }, a.run.id), ' ',
  badge(a.run.status, a.run.status === 'done' ? 'ok' : a.run.status === 'awaiting_approval' ? 'pending' : 'denied'));
}

/** Where the call was made: the gateway, or the agent loop and its run (an approval holds only there). */
function channel(a) {
  if (!a.channel) return h('span', { class: 'hint' }, 'unknown');
  return a.scope ? `${a.channel} (${a.scope})` : a.channel;
}

function callerId(ctx) {
  return ctx.me.principal && ctx.me.principal.user ? 'key:' + ctx.me.principal.user : null;
}

/**
 * The approval queue's routes (GET /v1/approvals, POST /v1/approvals/{id}): a decision also resumes the agent
 * loop's runs waiting for it. (The gateway's /approvals is retired: it answers 410 naming these.)
 */
const QUEUE = {
  list: () => get('/v1/approvals?all=true'),
  decide: (id, action) => post(`/v1/approvals/${encodeURIComponent(id)}`, { decision: action }),
};

function decide(queue, a, action, own, refresh) {
  const label = action === 'approve' ? 'Approve' : 'Deny';
  const b = h('button', { type: 'button', class: action === 'approve' ? 'primary' : 'danger',
    'aria-label': `${label} ${a.id} (${a.tool})`, disabled: own,
    title: own ? 'Your own request: someone else decides it' : null }, label);
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      const r = await queue.decide(a.id, action);
      status(`${a.id} ${r.status}`);
    } catch (e) {
      status(e instanceof ApiError ? e.message : String(e));
    }
    await refresh();
  });
  return b;
}
