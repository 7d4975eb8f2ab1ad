// Money: a manual adjustment is requested (an amount in euros with at most two decimals, sent
// as integer cents, against a named house account, with a reason) and posts only once approved
// (by a second operator unless the server is set otherwise); the lists by status; and the
// transfer wallet's outbox: credits owed to the operator's wallet and debits in doubt.
import { get, post } from '../api.js';
import { dateTime, money, t } from '../i18n.js';
import { add, field, fill, h, toast } from '../ui.js';
import { PERM, askReason, dataTable, errorWords, hashQuery, parseEuros, signedMoney } from './common.js';

const STATUSES = ['pending', 'posted', 'rejected'];
/** The house books an adjustment may move money against (the server's
 * store/adjustments.HOUSE_BOOKS, which refuses any other). */
const HOUSE_BOOKS = ['house', 'mint'];
const view = { status: 'pending' };

export default {
  mount(root, _params, admin) {
    this.admin = admin;
    root.className = 'page admin-page admin-money';
    add(root, h('h1', {}, t('admin.nav.money')));
    if (admin.can(PERM.adjust)) add(root, this.form());
    this.tabs = h('div', { class: 'tabs', role: 'tablist' });
    this.list = h('div', {});
    add(root, h('section', { class: 'panel admin-section' }, this.tabs, this.list));
    this.load();
    if (admin.can(PERM.wallet)) {
      this.outbox = h('section', { class: 'panel admin-section', 'data-testid': 'wallet-outbox' });
      add(root, this.outbox);
      this.loadOutbox();
    }
  },

  /** The operator's transfer wallet: what is owed to it or in doubt with it (the outbox). */
  async loadOutbox() {
    const title = h('h2', { class: 'panel-title' }, t('admin.wallet_title'));
    let data;
    try {
      data = await get('/api/admin/wallet/outbox');
    } catch (e) {
      fill(this.outbox, title, h('p', { class: 'form-error' }, errorWords(e)));
      return;
    }
    if (data.wallet !== 'transfer') {
      fill(this.outbox, title, h('p', { class: 'empty' }, t('admin.wallet_builtin')));
      return;
    }
    if (!data.rows.length) {
      fill(this.outbox, title, h('p', { class: 'empty', 'data-testid': 'wallet-outbox-none' }, t('admin.wallet_none')));
      return;
    }
    fill(
      this.outbox,
      title,
      h('p', { class: 'hint' }, t('admin.wallet_lead', { owed: money(data.owed) })),
      dataTable(
        [
          { label: 'admin.wallet_request', cell: (r) => h('code', {}, r.request_id) },
          { label: 'admin.col.when', cell: (r) => dateTime(r.created_at) },
          {
            label: 'admin.col.account',
            cell: (r) => h('a', { href: `#/players/${r.account}` }, r.username ? `${r.username} #${r.account}` : `#${r.account}`),
          },
          { label: 'admin.wallet_direction', cell: (r) => t(`admin.wallet_dir.${r.direction}`) },
          { label: 'admin.col.amount', cls: 'num', cell: (r) => money(r.amount) },
          { label: 'admin.col.status', cell: (r) => r.status },
          { label: 'admin.wallet_tries', cls: 'num', cell: (r) => String(r.attempts) },
          { label: 'admin.wallet_next', cell: (r) => dateTime(r.next_attempt_at) },
          { label: 'admin.wallet_error', cls: 'wrap', cell: (r) => r.last_error || '—' },
        ],
        data.rows.map((r) => ({ ...r, attrs: { 'data-transfer': r.request_id } })),
        { 'data-testid': 'wallet-outbox-rows' },
      ),
    );
  },

  form() {
    const account = h('input', {
      type: 'number',
      min: 1,
      step: 1,
      inputmode: 'numeric',
      required: true,
      value: hashQuery().account || '',
      'data-testid': 'adj-account',
    });
    const amount = h('input', {
      type: 'text',
      inputmode: 'decimal',
      required: true,
      autocomplete: 'off',
      placeholder: '0.00',
      'data-testid': 'adj-amount',
    });
    const house = h(
      'select',
      { required: true, 'data-testid': 'adj-house' },
      HOUSE_BOOKS.map((b) => h('option', { value: b }, t(`admin.book.${b}`))),
    );
    const reason = h('textarea', { rows: 2, required: true, maxlength: 500, 'data-testid': 'adj-reason' });
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'adj-error' });
    const submit = h('button', { type: 'submit', class: 'btn btn-primary', 'data-testid': 'adj-submit' }, t('admin.adj_request'));
    const form = h(
      'form',
      { class: 'panel admin-section adj-form', novalidate: true, 'data-testid': 'adj-form' },
      h('h2', { class: 'panel-title' }, t('admin.adj_title')),
      h(
        'div',
        { class: 'field-row' },
        field(t('admin.adj_account'), account),
        field(t('admin.adj_amount'), amount, t('admin.adj_amount_hint')),
        field(t('admin.adj_house'), house),
      ),
      field(t('admin.reason'), reason),
      error,
      submit,
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      const acc = Number(account.value);
      const cents = parseEuros(amount.value);
      if (!Number.isInteger(acc) || acc <= 0) error.textContent = t('admin.adj_bad_account');
      else if (cents === null) error.textContent = t('admin.adj_bad_amount');
      else if (cents === 0) error.textContent = t('admin.adj_zero');
      else if (!house.value.trim()) error.textContent = t('admin.adj_bad_house');
      else if (!reason.value.trim()) error.textContent = t('admin.reason_required');
      if (error.textContent) return;
      submit.disabled = true;
      try {
        const r = await post('/api/admin/adjustments', {
          account: acc,
          amount_cents: cents,
          house_account: house.value.trim(),
          reason: reason.value.trim(),
        });
        toast(t(r.status === 'posted' ? 'admin.adj_posted' : 'admin.adj_pending', { n: r.id }), 'ok');
        amount.value = '';
        reason.value = '';
        view.status = r.status === 'posted' ? 'posted' : 'pending';
        this.load();
      } catch (err) {
        error.textContent = errorWords(err);
      } finally {
        submit.disabled = false;
      }
    });
    return form;
  },

  async load() {
    fill(
      this.tabs,
      STATUSES.map((s) =>
        h(
          'button',
          {
            type: 'button',
            role: 'tab',
            class: 'tab',
            'aria-selected': String(view.status === s),
            'data-testid': `adj-tab-${s}`,
            onclick: () => {
              view.status = s;
              this.load();
            },
          },
          t(`admin.adj_status.${s}`),
        ),
      ),
    );
    fill(this.list, h('p', { class: 'loading' }, t('common.loading')));
    let data;
    try {
      data = await get(`/api/admin/adjustments?status=${view.status}`);
    } catch (e) {
      fill(this.list, h('p', { class: 'form-error' }, errorWords(e)));
      return;
    }
    if (!data.adjustments.length) {
      fill(this.list, h('p', { class: 'empty', 'data-testid': 'adj-none' }, t('admin.adj_none')));
      return;
    }
    const me = this.admin.me;
    const canApprove = this.admin.can(PERM.approve) && view.status === 'pending';
    const who = (x) => (x === null || x === undefined ? '—' : x === me.username || x === me.id ? t('admin.you') : String(x));
    fill(
      this.list,
      dataTable(
        [
          { label: 'admin.col.id', cls: 'num', cell: (a) => `#${a.id}` },
          { label: 'admin.col.when', cell: (a) => dateTime(a.at) },
          {
            label: 'admin.col.account',
            cell: (a) => h('a', { href: `#/players/${a.account}` }, a.username ? `${a.username} #${a.account}` : `#${a.account}`),
          },
          {
            label: 'admin.col.amount',
            cls: 'num',
            cell: (a) => h('span', { class: a.amount_cents >= 0 ? 'plus' : 'minus' }, signedMoney(a.amount_cents, money)),
          },
          { label: 'admin.adj_house', cell: (a) => h('code', {}, a.house_account) },
          { label: 'admin.reason', cls: 'wrap', cell: (a) => a.reason },
          { label: 'admin.col.requested_by', cell: (a) => who(a.requested_by) },
          view.status === 'pending'
            ? null
            : {
                label: 'admin.col.approved_by',
                cls: 'wrap',
                cell: (a) =>
                  h(
                    'span',
                    {},
                    who(a.approved_by ?? a.rejected_by),
                    a.decision_reason ? h('span', { class: 'muted' }, ` — ${a.decision_reason}`) : null,
                  ),
              },
          canApprove
            ? {
                label: '',
                cls: 'row-actions',
                cell: (a) =>
                  h(
                    'span',
                    { class: 'row-buttons' },
                    h(
                      'button',
                      { type: 'button', class: 'btn btn-small btn-primary', 'data-testid': `approve-${a.id}`, onclick: () => this.approve(a) },
                      t('admin.approve'),
                    ),
                    h(
                      'button',
                      { type: 'button', class: 'btn btn-small btn-warn', 'data-testid': `reject-${a.id}`, onclick: () => this.reject(a) },
                      t('admin.reject'),
                    ),
                  ),
              }
            : null,
        ].filter(Boolean),
        data.adjustments.map((a) => ({ ...a, attrs: { 'data-adjustment': a.id } })),
        { 'data-testid': 'adjustments' },
      ),
    );
  },

  async approve(a) {
    try {
      await post(`/api/admin/adjustments/${a.id}/approve`);
      toast(t('admin.adj_approved', { n: a.id }), 'ok');
    } catch (e) {
      toast(errorWords(e), 'error');
    }
    this.load();
  },

  async reject(a) {
    const reason = await askReason({
      title: t('admin.reject_title', { n: a.id }),
      text: t('admin.reject_text', { amount: signedMoney(a.amount_cents, money), n: a.account }),
      confirm: t('admin.reject'),
    });
    if (reason === null) return;
    try {
      await post(`/api/admin/adjustments/${a.id}/reject`, { reason });
      toast(t('admin.adj_rejected', { n: a.id }), 'ok');
    } catch (e) {
      toast(errorWords(e), 'error');
    }
    this.load();
  },
};
