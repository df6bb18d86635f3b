// Shared by every dashboard page: JSON calls, DOM building without innerHTML (every value goes in as text), the
// header, the current user and formatting.
'use strict';

const baton = (() => {
  /** An element with attributes and children; strings become text nodes, never markup. */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  class ApiError extends Error {
    constructor(status, message) { super(message); this.status = status; }
  }

  /** GET (or POST with a JSON body) and the parsed JSON answer; a non-2xx answer throws its {"error"} text. */
  async function api(path, body) {
    const options = body === undefined ? {} : {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)
    };
    const response = await fetch(path, options);
    const text = await response.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
    if (!response.ok) {
      const reason = json && json.error ? json.error : text.trim() || response.statusText;
      throw new ApiError(response.status, response.status + ': ' + reason);
    }
    return json;
  }

  function show(target, error) {
    const box = typeof target === 'string' ? document.getElementById(target) : target;
    box.className = 'message error';
    box.textContent = error instanceof Error ? error.message : String(error);
  }

  function info(target, text) {
    const box = typeof target === 'string' ? document.getElementById(target) : target;
    box.className = 'message info';
    box.textContent = text;
  }

  const pages = [
    ['Overview', '/'], ['Job lookup', '/dashboard/job.html'], ['Outcomes', '/dashboard/outcomes.html'],
    ['Dead letters', '/dashboard/dead.html'], ['Audit trail', '/dashboard/audit.html']
  ];

  let whoami = null;

  /** Draws the header and reads /api/whoami; resolves to {user, can_change}. */
  async function start() {
    const here = location.pathname;
    const nav = el('nav', {}, pages.map(([name, href]) =>
      el('a', {href, class: href === here ? 'current' : null}, name)));
    const user = el('span', {class: 'user', id: 'user'});
    document.body.prepend(el('header', {}, el('span', {class: 'brand'}, 'Baton'), nav, user));
    try {
      whoami = await api('/api/whoami');
    } catch (e) {
      whoami = {user: null, can_change: false};
    }
    user.textContent = (whoami.user ? 'signed in as ' + whoami.user : 'no login') +
      (whoami.can_change ? '' : ' · read-only');
    if (whoami.user) user.after(el('button', {class: 'signout', id: 'signout', onclick: signOut}, 'Sign out'));
    document.querySelectorAll('[data-change]').forEach(node => {
      node.hidden = !whoami.can_change;
      node.disabled = !whoami.can_change;
    });
    return whoami;
  }

  /**
   * Ends this browser's login: the server marks the browser, answers its next request with a login challenge, and the
   * browser forgets the password it kept and asks for one again.
   */
  async function signOut() {
    try {
      await api('/api/signout', {});
    } finally {
      location.assign('/');
    }
  }

  function canChange() {
    return Boolean(whoami && whoami.can_change);
  }

  function param(name) {
    return new URLSearchParams(location.search).get(name);
  }

  function number(value) {
    return value === null || value === undefined ? '–' : Number(value).toLocaleString('en-US');
  }

  function duration(ms) {
    if (ms === null || ms === undefined) return '–';
    const s = Math.round(ms / 1000);
    if (s < 60) return s + ' s';
    if (s < 3600) return Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
    return Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min';
  }

  function time(iso) {
    if (!iso) return '–';
    const date = new Date(iso);
    return isNaN(date) ? String(iso) : date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  }

  function badge(text) {
    return el('span', {class: 'badge ' + String(text).toLowerCase()}, text);
  }

  /**
   * Fills a <select> with the readable queues the server knows, choosing {@code chosen} (or the first). An unknown
   * {@code chosen} is an error, never silently another queue: the select then asks for a choice.
   */
  async function queueChoice(select, chosen) {
    const data = await api('/api/queues');
    const queues = (data.queues || data).filter(q => !q.error).map(q => q.queue);
    select.replaceChildren(...queues.map(q => el('option', {value: q, selected: q === chosen}, q)));
    if (chosen && !queues.includes(chosen)) {
      select.prepend(el('option', {value: '', selected: true, disabled: true}, 'choose a queue'));
      throw new Error('Unknown queue \'' + chosen + '\': it is neither configured nor in Redis. Choose a queue.');
    }
    return select.value;
  }

  /** Asks for confirmation in a modal dialog; resolves true when confirmed. */
  function confirmDialog(text, action) {
    return new Promise(resolve => {
      const dialog = el('dialog', {id: 'confirm'},
        el('p', {}, text),
        el('div', {class: 'actions'},
          el('button', {class: 'secondary', id: 'confirm-cancel', onclick: () => { dialog.close(); resolve(false); }},
            'Cancel'),
          el('button', {class: 'danger', id: 'confirm-ok', onclick: () => { dialog.close(); resolve(true); }},
            action)));
      dialog.addEventListener('close', () => dialog.remove());
      document.body.append(dialog);
      dialog.showModal();
    });
  }

  return {el, api, show, info, start, canChange, param, number, duration, time, badge, queueChoice, confirmDialog};
})();

/**
 * A filtered, keyset-paged list: reads the filter form, asks {@code path(queue) + '?' + filters + '&before=...'} for
 * a page ({"items", "next"}) and appends its rows; "Older" fetches the next page.
 */
baton.pagedList = function (options) {
  const {api, show, param, queueChoice} = baton;
  const form = document.getElementById('filters');
  const body = document.querySelector(options.table + ' tbody');
  const more = document.getElementById('more');
  let next = null;

  function filters() {
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (name === 'queue' || value === '') continue;
      query.set(name, (name === 'from' || name === 'to') ? new Date(value).toISOString() : value);
    }
    return query;
  }

  function queue() {
    return document.getElementById('queue').value;
  }

  async function load(reset) {
    const query = filters();
    query.set('limit', '50');
    if (!reset && next) query.set('before', next);
    try {
      const page = await api(options.path(queue()) + '?' + query);
      if (reset) body.replaceChildren();
      page.items.forEach(item => body.append(options.row(item)));
      next = page.next;
      more.hidden = !next;
      if (reset) {
        history.replaceState(null, '', '?queue=' + encodeURIComponent(queue()));
        document.getElementById('message').textContent = '';
      }
      if (options.loaded) options.loaded(page);
    } catch (e) {
      show('message', e);
    }
  }

  form.addEventListener('submit', event => { event.preventDefault(); load(true); });
  document.getElementById('queue').addEventListener('change', () => load(true));
  more.addEventListener('click', () => load(false));
  baton.start().then(() => queueChoice(document.getElementById('queue'), param('queue')))
    .then(() => load(true)).catch(e => show('message', e));
  return {reload: () => load(true), filters, queue};
};
