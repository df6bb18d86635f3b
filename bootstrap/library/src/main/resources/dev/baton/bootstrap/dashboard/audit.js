// The audit trail of admin changes, newest first, a page at a time.
'use strict';
(() => {
  const {el, api, show, info, time, number} = baton;
  const body = document.querySelector('#audit tbody');
  const more = document.getElementById('more');
  let next = null;

  function row(item) {
    return el('tr', {'data-action': item.action},
      el('td', {class: 'nowrap'}, time(item.at)), el('td', {}, item.user || '(no login)'),
      el('td', {class: 'nowrap'}, item.client), el('td', {class: 'nowrap'}, item.action),
      el('td', {}, item.queue || '–'),
      el('td', {}, el('code', {}, item.method + ' ' + item.path), item.summary ? ' ' : null,
        item.summary ? el('code', {}, item.summary) : null),
      el('td', {class: 'num'}, item.affected === null ? '–' : number(item.affected)),
      el('td', {class: 'num'}, String(item.status)));
  }

  async function load() {
    const query = new URLSearchParams({limit: '50'});
    if (next) query.set('before', next);
    try {
      const page = await api('/api/audit?' + query);
      if (!page.recorded) {
        info('message', 'No ledger (at-least-once mode): changes are logged, not kept in a trail.');
      } else if (!next && page.items.length === 0) {
        info('message', 'No change recorded yet.');
      }
      page.items.forEach(item => body.append(row(item)));
      next = page.next;
      more.hidden = !next;
    } catch (e) {
      show('message', e);
    }
  }

  more.addEventListener('click', load);
  baton.start().then(load).catch(e => show('message', e));
})();
