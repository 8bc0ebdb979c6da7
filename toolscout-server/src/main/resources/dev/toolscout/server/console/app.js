// The console's shell: who is signed in, the navigation, and one page at a time by the location's hash
// (#catalog, #try, #servers, #approvals, #usage). A reader sees; an admin also acts (the server decides: the
// console only hides what the role may not do).
import { ApiError, clearKey, get, key, setKey } from './api.js';
import { h, field, heading, principalText, status, errorBox, loading } from './ui.js';
import * as catalog from './catalog.js';
import * as tryPage from './try.js';
import * as servers from './servers.js';
import * as approvals from './approvals.js';
import * as usage from './usage.js';

const PAGES = { catalog, try: tryPage, servers, approvals, usage };
const ctx = { me: null, admin: false, timers: [] };

function main() {
  return document.getElementById('main');
}

function stopTimers() {
  ctx.timers.forEach((t) => clearInterval(t));
  ctx.timers = [];
}

function signIn(message) {
  stopTimers();
  document.getElementById('who').textContent = '';
  document.getElementById('signout').hidden = true;
  const input = h('input', { type: 'password', name: 'key', autocomplete: 'current-password', required: true,
    minlength: '16' });
  const form = h('form', { class: 'card login', 'aria-labelledby': 'login-title' },
    h('h1', { id: 'login-title', tabindex: '-1' }, 'Sign in'),
    h('p', {}, 'This server needs an API key. It is kept for this tab only (sessionStorage) and sent as '
      + 'Authorization: Bearer.'),
    message ? h('p', { class: 'error', role: 'alert' }, message) : null,
    field('API key', input),
    h('button', { type: 'submit' }, 'Sign in'));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    setKey(input.value.trim());
    await start(true);
  });
  main().replaceChildren(form);
  input.focus();
}

async function start(moveFocus) {
  main().replaceChildren(loading());
  try {
    ctx.me = await get('/v1/whoami');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      const had = key();
      clearKey();
      signIn(had ? 'That key is not known to this server.' : null);
      return;
    }
    main().replaceChildren(errorBox(e));
    return;
  }
  ctx.admin = ctx.me.role === 'admin';
  document.getElementById('who').textContent =
    `${principalText(ctx.me.principal)} · ${ctx.me.role}${ctx.me.keys_required ? '' : ' (local, no keys)'}`;
  document.getElementById('signout').hidden = !ctx.me.keys_required;
  await show(moveFocus);
}

async function show(moveFocus) {
  stopTimers();
  const name = (location.hash || '#catalog').substring(1).split('?')[0];
  const page = PAGES[name] || catalog;
  for (const a of document.querySelectorAll('nav a')) {
    if (a.dataset.page === (PAGES[name] ? name : 'catalog')) {
      a.setAttribute('aria-current', 'page');
    } else {
      a.removeAttribute('aria-current');
    }
  }
  const m = main();
  m.replaceChildren(loading());
  try {
    await page.render(m, ctx);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      clearKey();
      signIn('The key was refused; sign in again.');
      return;
    }
    m.replaceChildren(...heading('Error'), errorBox(e));
  }
  // after a navigation, to the new page's heading (a screen reader announces it); not on the first load, so a
  // keyboard starts at the top: the skip link, then the navigation
  const h1 = m.querySelector('h1');
  if (h1 && moveFocus) {
    h1.focus();
  }
  status('');
}

window.addEventListener('hashchange', () => {
  if (ctx.me) {
    show(true);
  }
});
document.getElementById('signout').addEventListener('click', () => {
  clearKey();
  ctx.me = null;
  signIn();
});
start();
