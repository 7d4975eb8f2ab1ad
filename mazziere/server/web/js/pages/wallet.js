// The wallet: the balance and the ledger lines of one's own wallet and casino sessions.
import { get } from '../api.js';
import { dateTime, has, money, t } from '../i18n.js';
import { add, clear, h, showError } from '../ui.js';

function bookName(book) {
  if (book.startsWith('wallet:')) return t('wallet.book_wallet');
  if (book.startsWith('casino:')) return t('wallet.book_casino', { n: book.split(':')[1] });
  return book;
}

function refText(ref) {
  if (!ref) return '';
  const [kind, id] = ref.split(':');
  if (kind === 'hand') return h('a', { href: `#/history/${id}` }, t('wallet.ref_hand', { n: id }));
  if (kind === 'casino') return t('wallet.book_casino', { n: id });
  if (kind === 'account') return t('wallet.ref_account');
  return ref;
}

export default {
  async mount(root, _params, app) {
    root.className = 'page page-wallet';
    const head = h('div', { class: 'wallet-head' });
    const box = h('div', { class: 'panel' }, h('p', { class: 'loading' }, t('common.loading')));
    add(root, h('h1', {}, t('wallet.title')), head, box);
    let data;
    try {
      data = await get('/api/wallet');
    } catch (e) {
      showError(e.code, e.message);
      return;
    }
    app.refreshMe();
    add(
      head,
      h(
        'div',
        { class: 'balance-card' },
        h('span', { class: 'muted' }, t('wallet.balance')),
        h('strong', { class: 'balance', 'data-testid': 'wallet-balance' }, money(data.balance)),
      ),
      h('p', { class: 'hint' }, t(data.wallet === 'transfer' ? 'wallet.explain_transfer' : 'wallet.explain')),
      h('a', { class: 'exclusion-link', href: '#/exclusion', 'data-testid': 'exclusion-link' }, t('wallet.exclusion_link')),
    );
    clear(box);
    add(box, h('h2', { class: 'panel-title' }, t('wallet.movements')));
    if (!data.movements.length) {
      add(box, h('p', { class: 'empty' }, t('wallet.none')));
      return;
    }
    let lastTxn = null;
    add(
      box,
      h(
        'table',
        { class: 'data-table ledger', 'data-testid': 'ledger' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['wallet.when', 'wallet.what', 'wallet.book', 'wallet.ref', 'wallet.amount'].map((k) =>
              h('th', { scope: 'col', class: k === 'wallet.amount' ? 'num' : null }, t(k)),
            ),
          ),
        ),
        h(
          'tbody',
          {},
          data.movements.map((m) => {
            const first = m.txn !== lastTxn;
            lastTxn = m.txn;
            return h(
              'tr',
              { class: first ? 'txn-first' : 'txn-more', 'data-kind': m.kind, 'data-book': m.book },
              h('td', { class: 'when' }, first ? dateTime(m.at) : ''),
              h('td', { class: 'what' }, has(`ledger.${m.kind}`) ? t(`ledger.${m.kind}`) : m.kind),
              h('td', { class: 'book' }, bookName(m.book)),
              h('td', { class: 'ref' }, refText(m.ref)),
              h(
                'td',
                { class: `amount num ${m.amount >= 0 ? 'plus' : 'minus'}` },
                `${m.amount >= 0 ? '+' : '−'}${money(Math.abs(m.amount))}`,
              ),
            );
          }),
        ),
      ),
    );
  },
};
