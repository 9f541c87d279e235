// The console's data routes, relative to the page (served at `<path>/`).

const TOKEN = 'mcp-console-token';

export const token = {
  get: () => sessionStorage.getItem(TOKEN) ?? '',
  set: (value) => (value ? sessionStorage.setItem(TOKEN, value) : sessionStorage.removeItem(TOKEN)),
};

/** A refused or failed request: its HTTP status and the server's message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(path, init = {}) {
  const headers = { accept: 'application/json', ...init.headers };
  if (token.get()) headers.authorization = `Bearer ${token.get()}`;
  let res;
  try {
    res = await fetch(`api/${path}`, { ...init, headers, credentials: 'same-origin', cache: 'no-store' });
  } catch (err) {
    throw new ApiError(0, `The server did not answer (${err.message})`);
  }
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, [body.message].flat().join('; ') || res.statusText);
  return body;
}

export const api = {
  overview: () => request('overview'),
  activity: () => request('activity'),
  tasks: (params) => request(`tasks?${new URLSearchParams(params)}`),
  task: (id) => request(`tasks/${encodeURIComponent(id)}`),
  cancel: (id) =>
    request(`tasks/${encodeURIComponent(id)}/cancel`, { method: 'POST', headers: { 'x-mcp-console': '1' } }),
};
