// Rounds anyone can verify (docs/verify.md). At a table, a small line shows the seed commitment
// of the hand in progress (from its hand_started note) and, once the hand is over, its seed
// (from its hand_over note), checked here against the commitment with the browser's SHA-256.
// On the history page, a Verify button asks the server to replay the hand from its revealed
// seed and recorded actions (GET /api/hands/{id}/verify) and shows the outcome, every card
// dealt, and the hand's file to download for `mazziere verify`.
import { ApiError, get, session } from './api.js';
import { has, t } from './i18n.js';
import { errorText, fill, h, modal } from './ui.js';

/** SHA-256 of the seed's bytes (hex), as the server commits to it; null without WebCrypto. */
export async function seedSha256(seedHex) {
  if (!globalThis.crypto?.subtle || !/^([0-9a-f]{2}){32}$/i.test(seedHex || '')) return null;
  const bytes = new Uint8Array(seedHex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const short = (hex) => `${String(hex).slice(0, 8)}…`;

/**
 * The table page's line: the hand in progress and its commitment, then its seed once it is over.
 * Its state lives in the table's memory (`mem.fairness`), so a redraw keeps it; notes of an
 * older hand than the one shown are ignored (a full update repeats earlier notes).
 */
export class FairnessLine {
  constructor(mem) {
    this.mem = mem;
    // the line keeps its place before the first hand: the table does not move when it starts
    this.el = h('p', { class: 'fairness', 'data-testid': 'fairness' });
    this.draw();
  }

  /** Read table notes (any order of repeats): hand_started and hand_over. */
  take(notes, seated) {
    let f = this.mem.fairness || null;
    for (const n of notes || []) {
      if (!n || (n.note !== 'hand_started' && n.note !== 'hand_over')) continue;
      if (f && n.hand < f.hand) continue;
      if (n.note === 'hand_started') {
        if (!f || n.hand > f.hand) f = { hand: n.hand, commitment: n.commitment, seed: null };
      } else if (f && n.hand === f.hand && n.seed) {
        f = { ...f, seed: n.seed };
      }
    }
    const changed = f !== this.mem.fairness || this.seated !== Boolean(seated);
    this.mem.fairness = f;
    this.seated = Boolean(seated);
    if (changed) this.draw();
  }

  draw() {
    const f = this.mem.fairness;
    this.el.classList.toggle('fairness-none', !f);
    if (!f) {
      fill(this.el, '\u00a0');
      return;
    }
    if (!f.seed) {
      this.el.dataset.state = 'committed';
      this.el.title = t('fair.commitment_title');
      fill(
        this.el,
        h('span', { class: 'fair-label' }, t('fair.commitment', { hand: f.hand, c: '' })),
        h('code', { 'data-testid': 'fair-commitment', 'data-full': f.commitment }, short(f.commitment)),
      );
      return;
    }
    this.el.dataset.state = 'revealed';
    this.el.title = t('fair.seed_title', { hand: f.hand, c: f.commitment });
    const check = h('span', { class: 'fair-check', 'data-testid': 'fair-check' });
    fill(
      this.el,
      h('span', { class: 'fair-label' }, t('fair.seed', { hand: f.hand, s: '' })),
      h('code', { 'data-testid': 'fair-seed', 'data-full': f.seed }, short(f.seed)),
      ' ',
      check,
      this.seated
        ? h('span', { class: 'fair-link' }, ' · ', h('a', { href: `#/history/${f.hand}`, 'data-testid': 'fair-verify' }, t('fair.verify_link')))
        : '',
    );
    seedSha256(f.seed).then((digest) => {
      if (digest === null) return;
      const ok = digest === String(f.commitment).toLowerCase();
      check.className = `fair-check ${ok ? 'ok' : 'bad'}`;
      // the words go on a narrow screen (the mark and its title stay)
      check.title = ok ? t('fair.matches') : t('fair.differs');
      fill(check, ok ? '✓' : '✗', h('span', { class: 'fair-words' }, ` ${check.title}`));
    });
  }
}

/** The hand's file (GET /api/hands/{id}/file), saved by the browser. */
async function download(handId) {
  const headers = {};
  const s = session.get();
  if (s?.token) headers.Authorization = `Bearer ${s.token}`;
  const res = await fetch(`/api/hands/${handId}/file`, { headers });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new ApiError(body.code || 'network', body.message || res.statusText, res.status);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = h('a', { href: url, download: `mazziere-hand-${handId}.json`, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function problemText(p) {
  const key = `verify.problem.${p.code}`;
  return has(key) ? t(key, { step: p.step }) : p.message;
}

/** The verification in a dialog's body. */
function outcome(handId, v, nameOf) {
  const who = (seat) => (seat === null || seat === undefined ? t('verify.face_up') : nameOf(seat));
  const browser = h('span', { class: 'muted', 'data-testid': 'verify-browser' });
  seedSha256(v.seed).then((digest) => {
    if (digest === null) return;
    browser.textContent = ` — ${digest === String(v.commitment).toLowerCase() ? t('verify.browser_ok') : t('verify.browser_differs')}`;
  });
  const file = `mazziere-hand-${handId}.json`;
  const status = h('p', { class: 'verify-status', 'data-testid': 'verify-download-status' });
  return h(
    'div',
    { class: `verify-outcome ${v.ok ? 'ok' : 'bad'}`, 'data-testid': 'verify-outcome', 'data-ok': String(v.ok) },
    h('p', { class: 'verify-headline', 'data-testid': 'verify-headline' }, v.ok ? `✓ ${t('verify.ok')}` : `✗ ${t('verify.failed')}`),
    v.problems.length
      ? h(
          'ul',
          { class: 'verify-problems', 'data-testid': 'verify-problems' },
          v.problems.map((p) => h('li', { 'data-code': p.code }, problemText(p), h('span', { class: 'muted' }, ` — ${p.message}`))),
        )
      : null,
    h(
      'dl',
      { class: 'verify-facts' },
      h('dt', {}, t('verify.commitment')),
      h('dd', {}, h('code', { class: 'hex' }, v.commitment)),
      h('dt', {}, t('verify.seed')),
      h('dd', {}, h('code', { class: 'hex', 'data-testid': 'verify-seed' }, v.seed)),
      h('dt', {}, t('verify.sha')),
      h('dd', {}, h('code', { class: 'hex' }, v.seed_sha256 || '—'), browser),
    ),
    h('p', {}, t('verify.steps', { n: v.steps, k: v.cards_dealt })),
    h(
      'details',
      { class: 'verify-cards' },
      h('summary', {}, t('verify.cards')),
      h(
        'ol',
        { 'data-testid': 'verify-cards' },
        v.dealt.map((d) =>
          h(
            'li',
            {},
            h('span', { class: 'muted' }, d.step === 0 ? t('verify.deal') : t('verify.step_n', { n: d.step })),
            ' ',
            who(d.seat),
            ': ',
            h('code', {}, d.cards.join(' ')),
            ' ',
            h('span', { class: 'muted' }, `(${has(`verify.how.${d.how}`) ? t(`verify.how.${d.how}`) : d.how})`),
          ),
        ),
      ),
    ),
    h(
      'p',
      { class: 'verify-actions' },
      h(
        'button',
        {
          type: 'button',
          class: 'btn btn-small',
          'data-action': 'download-hand',
          onclick: () =>
            download(handId).catch((e) => {
              status.textContent = errorText(e.code, e.message);
            }),
        },
        t('verify.download'),
      ),
    ),
    status,
    h('p', { class: 'muted small' }, t('verify.yourself', { file })),
  );
}

/** Ask the server to verify a finished hand and show the outcome in a dialog. */
export async function showVerification(handId, nameOf = (s) => t('seat.n', { n: s + 1 })) {
  let body;
  try {
    body = outcome(handId, await get(`/api/hands/${handId}/verify`), nameOf);
  } catch (e) {
    body = h('p', { class: 'verify-outcome bad', 'data-testid': 'verify-outcome', 'data-ok': 'false' }, errorText(e.code, e.message));
  }
  await modal({
    title: t('verify.title', { n: handId }),
    body,
    className: 'modal-verify',
    choices: [{ label: t('common.close'), value: true, class: 'btn btn-primary' }],
    cancel: false,
  });
}

/** Seat names for a row of the history list (its game and this player's seat). */
export function seatNames(row) {
  return (s) => {
    if (s === row.seat) return t('common.you_cap');
    if (row.game === 'casino' && s === 1) return t('casino.bank');
    if (row.game === 'poker' && s === 1) return t('poker.computer');
    return t('seat.n', { n: s + 1 });
  };
}

/** The history page's Verify button for a finished hand. */
export function verifyButton(handId, nameOf) {
  return h(
    'button',
    {
      type: 'button',
      class: 'btn btn-small btn-ghost',
      'data-testid': `verify-${handId}`,
      'data-action': 'verify',
      onclick: () => showVerification(handId, nameOf),
    },
    t('verify.button'),
  );
}
