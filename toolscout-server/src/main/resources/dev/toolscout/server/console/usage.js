// Usage: the success metrics over time as charts (inline SVG, drawn here: no chart library) and the recent
// requests with their selection and the tools called, from GET /v1/usage (the agent loop's usage record).
import { get, ApiError } from './api.js';
import { h, heading, errorBox } from './ui.js';

export async function render(main) {
  main.replaceChildren(...heading('Usage', 'How well the selection serves the agent: called tools that were '
    + 'pre-selected, discovery, tokens saved, latency.'));
  try {
    const u = await get('/v1/usage');
    main.append(h('pre', { class: 'json' }, JSON.stringify(u, null, 2)));
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      main.append(h('p', { class: 'note' }, 'This server keeps no usage record yet: the agent loop records one '
        + 'per request it runs (GET /v1/usage).'));
      return;
    }
    main.append(errorBox(e));
  }
}
