// The dashboard: a thin page over the admin API. The admin token stays in this tab's
// sessionStorage and is sent as a bearer token; nothing here has more rights than the API.
const $ = (selector) => document.querySelector(selector);
const state = { token: sessionStorage.getItem('adminToken') || '' };

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child ?? '');
  return node;
}

function say(text) {
  $('#message').textContent = text || '';
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: {
      authorization: `Bearer ${state.token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok)
    throw new Error(data.error ? `${data.error.code}: ${data.error.message}` : `HTTP ${res.status}`);
  return data;
}

async function loadHealth() {
  const res = await fetch('/health');
  const h = await res.json();
  const rows = Object.entries(h.channels).map(([channel, c]) =>
    el(
      'tr',
      {},
      el('td', {}, channel),
      el('td', { className: c.operational ? 'up' : 'down' }, c.operational ? 'operational' : 'down'),
      el(
        'td',
        {},
        ...c.providers.flatMap((p) => [el('span', { className: p.state }, `${p.name}: ${p.state}`), ' ']),
      ),
    ),
  );
  $('#health-body').replaceChildren(
    el(
      'p',
      {},
      'Status ',
      el('span', { className: h.status }, h.status),
      ` · version ${h.version} · up ${h.uptimeSeconds}s · database `,
      el('span', { className: h.services.database }, h.services.database),
      ' · rate-limit store ',
      el('span', { className: h.services.rateLimitStore }, h.services.rateLimitStore),
    ),
    el(
      'table',
      {},
      el(
        'thead',
        {},
        el('tr', {}, el('th', {}, 'Channel'), el('th', {}, 'State'), el('th', {}, 'Providers')),
      ),
      el('tbody', {}, ...rows),
    ),
  );
}

async function loadAccounts() {
  const { data } = await api('GET', '/v1/admin/accounts');
  $('#accounts tbody').replaceChildren(
    ...data.map((a) =>
      el(
        'tr',
        {},
        el('td', {}, el('code', {}, a.id)),
        el('td', {}, a.name),
        el('td', {}, el('code', {}, JSON.stringify(a.settings))),
        el('td', {}, a.createdAt),
      ),
    ),
  );
  $('#new-key select').replaceChildren(...data.map((a) => el('option', { value: a.id }, a.name)));
}

async function loadKeys() {
  const { data } = await api('GET', '/v1/admin/api-keys');
  $('#keys tbody').replaceChildren(
    ...data.map((k) => {
      const actions = el('td');
      if (!k.revokedAt) {
        actions.append(
          el('button', { onclick: () => act(() => rotate(k.id)) }, 'Rotate'),
          ' ',
          el('button', { onclick: () => act(() => revoke(k.id)) }, 'Revoke'),
        );
      }
      return el(
        'tr',
        {},
        el('td', {}, k.name),
        el('td', {}, el('code', {}, `${k.prefix}…`)),
        el('td', {}, el('code', {}, k.accountId)),
        el('td', {}, k.channels.join(', ')),
        el('td', {}, k.test ? 'test' : 'live'),
        el(
          'td',
          { className: k.revokedAt ? 'down' : 'up' },
          k.revokedAt ? `revoked ${k.revokedAt}` : 'active',
        ),
        actions,
      );
    }),
  );
}

function showSecret(key) {
  const p = $('#secret');
  p.hidden = false;
  p.textContent = `New secret (shown once, copy it now): ${key}`;
}

async function rotate(id) {
  if (!confirm('Issue a new secret and revoke the current one?')) return;
  const { data } = await api('POST', `/v1/admin/api-keys/${id}/rotate`);
  showSecret(data.key);
  await loadKeys();
}

async function revoke(id) {
  if (!confirm('Revoke this key? Requests with it will get 401 at once.')) return;
  await api('DELETE', `/v1/admin/api-keys/${id}`);
  await loadKeys();
}

async function loadOutbox(to) {
  const query = to ? `?to=${encodeURIComponent(to)}` : '';
  const { data } = await api('GET', `/v1/admin/outbox${query}`);
  $('#outbox-list').replaceChildren(
    ...(data.length === 0
      ? [el('li', { className: 'meta' }, 'No messages.')]
      : data.map((m) =>
          el(
            'li',
            {},
            el(
              'div',
              { className: 'meta' },
              `${m.createdAt} · ${m.channel} → ${m.to}${m.subject ? ` · ${m.subject}` : ''}`,
            ),
            el('pre', {}, m.text),
            // The HTML part is shown in a sandbox: no scripts, no access to this page.
            m.html ? el('iframe', { sandbox: '', srcdoc: m.html, title: 'Email preview' }) : '',
          ),
        )),
  );
}

async function act(work) {
  try {
    say('');
    await work();
  } catch (err) {
    say(err.message);
  }
}

async function connect() {
  const sections = ['#accounts', '#keys', '#outbox'];
  if (!state.token) {
    for (const s of sections) $(s).hidden = true;
    return;
  }
  await act(async () => {
    await Promise.all([loadAccounts(), loadKeys(), loadOutbox('')]);
    for (const s of sections) $(s).hidden = false;
    $('#logout').hidden = false;
  });
}

$('#login').addEventListener('submit', (e) => {
  e.preventDefault();
  state.token = $('#token').value.trim();
  sessionStorage.setItem('adminToken', state.token);
  $('#token').value = '';
  connect();
});
$('#logout').addEventListener('click', () => {
  state.token = '';
  sessionStorage.removeItem('adminToken');
  $('#logout').hidden = true;
  connect();
});
$('#new-account').addEventListener('submit', (e) => {
  e.preventDefault();
  const form = e.target;
  act(async () => {
    await api('POST', '/v1/admin/accounts', { name: form.name.value });
    form.reset();
    await loadAccounts();
  });
});
$('#new-key').addEventListener('submit', (e) => {
  e.preventDefault();
  const form = e.target;
  const channels = ['EMAIL', 'SMS', 'WHATSAPP'].filter((c) => form[c].checked);
  act(async () => {
    const { data } = await api('POST', '/v1/admin/api-keys', {
      name: form.name.value,
      channels,
      accountId: form.accountId.value || undefined,
      test: form.test.checked,
    });
    showSecret(data.key);
    await loadKeys();
  });
});
$('#outbox-filter').addEventListener('submit', (e) => {
  e.preventDefault();
  act(() => loadOutbox(e.target.to.value.trim()));
});

act(loadHealth);
setInterval(() => act(loadHealth), 10_000);
connect();
