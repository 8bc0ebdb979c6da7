// The HTTP API as the console calls it: the key the person signed in with is kept in sessionStorage (gone when the
// tab closes) and sent as Authorization: Bearer, never in a URL. Every answer is JSON; an error is a problem+json
// document (or the approval queue's {"error"}), turned into an ApiError that says what the server said.
const KEY = 'toolscout.key';

export class ApiError extends Error {
  constructor(status, body, text) {
    super((body && (body.detail || body.error)) || text || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export function key() {
  return sessionStorage.getItem(KEY);
}

export function setKey(k) {
  sessionStorage.setItem(KEY, k);
}

export function clearKey() {
  sessionStorage.removeItem(KEY);
}

export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  const k = key();
  if (k) {
    headers.Authorization = 'Bearer ' + k;
  }
  const init = { method, headers, credentials: 'omit', cache: 'no-store' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  const text = await r.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!r.ok) {
    throw new ApiError(r.status, data, text);
  }
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body);
export const del = (path) => api('DELETE', path);

/** A query string of the given values, leaving out empty ones. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') {
      q.set(k, String(v));
    }
  }
  const s = q.toString();
  return s ? '?' + s : '';
}
