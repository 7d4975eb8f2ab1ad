// A rules page per game; the casino's states the RTP the project measured (config.js).
import { CASINO_RTP_TEXT } from '../config.js';
import { getLang, raw, t } from '../i18n.js';
import { add, h } from '../ui.js';

export default {
  mount(root, { game }) {
    root.className = 'page page-rules';
    const sections = raw(`rules.${game}`);
    add(
      root,
      h(
        'nav',
        { class: 'rules-tabs', 'aria-label': t('nav.rules') },
        ['uno', 'casino', 'poker'].map((g) =>
          h(
            'a',
            { href: `#/rules/${g}`, class: g === game ? 'active' : null, 'aria-current': g === game ? 'page' : null },
            t(`game.${g}`),
          ),
        ),
      ),
      h('h1', {}, t(`rules.${game}.title`)),
      game === 'casino'
        ? h('p', { class: 'rtp', 'data-testid': 'rtp' }, CASINO_RTP_TEXT[getLang()] || CASINO_RTP_TEXT.en)
        : null,
      h(
        'div',
        { class: 'rules-body' },
        (Array.isArray(sections) ? sections : []).map(([title, paras]) =>
          h(
            'section',
            { class: 'panel rules-section' },
            h('h2', {}, title),
            paras.map((p) =>
              Array.isArray(p)
                ? h(
                    'ul',
                    {},
                    p.map((li) => h('li', {}, li)),
                  )
                : h('p', {}, p),
            ),
          ),
        ),
      ),
    );
  },
};
