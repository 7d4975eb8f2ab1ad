// UNO CASINO's words in both languages: the table, its events and reasons, its rules page.
// Registered with i18n at import time. A test checks both languages agree.
import { register } from '../../i18n.js';

export const en = {
  // UNO CASINO
  'casino.bank': 'the bank',
  'casino.bank_cards': 'the bank holds {n} cards',
  'casino.bank_cards.one': 'the bank holds 1 card',
  'casino.no_round': 'no round in play',
  'casino.multiplier': 'Payout multiplier',
  'casino.draws_left': 'draws before x1: {n}',
  'casino.no_draws_at_x1': 'at x1 you may not draw',
  'casino.starts_at_x3': 'each round starts at x3',
  'casino.you_win': 'You win at x{m}!',
  'casino.player_wins': '{who} wins at x{m}',
  'casino.bank_wins': 'The bank wins',
  'casino.paid': '{payout} paid (stake {stake})',
  'casino.stake_lost': 'Stake of {stake} lost',
  'casino.cards_left': 'Your cards left:',
  'casino.stake_is': 'stake {stake}',
  'casino.prompt.play': 'Your turn: play a card, or draw (the multiplier drops one step).',
  'casino.prompt.x1': 'At x1: play a card if you can; drawing is not allowed.',
  'casino.prompt.stuck': 'No card can be played.',
  'casino.prompt.bank': 'The bank is playing…',
  'casino.draw_costs': 'Draw (−1 step)',
  'casino.stake': 'Stake',
  'casino.stake_eur': 'Stake (€)',
  'casino.limits': 'Table limits: {min} – {max}',
  'casino.stake_min': 'The minimum stake is {min}.',
  'casino.stake_max': 'The maximum stake is {max}.',
  'casino.cents_only': 'Amounts are in euros and cents: at most two decimals (1.23, not 1.234).',
  'casino.stake_credit': 'Not enough session credit ({credit}): top up first.',
  'casino.deal': 'Bet and deal',
  'casino.deal_again': 'Bet and deal again',
  'casino.topup': 'Top up',
  'casino.topup_eur': 'Top up the session (€)',
  'casino.wallet_has': 'wallet: {amount}',
  'casino.open_session': 'Open a session',
  'casino.topup_first': 'Move money from your wallet into this table’s session credit, then place a stake.',
  'casino.next_round': 'Next round',
  'casino.session': 'Session',
  'casino.credit': 'Session credit',
  'casino.stakes': 'Stakes',
  'casino.decision_time': 'Time per decision',
  'casino.seconds': '{s} s',
  'casino.time_rules':
    'When a decision’s time runs out, the published default strategy plays for you. After 20 minutes without play you are warned, then disconnected. If you lose the connection with no decision pending, the session closes after 3 minutes and the credit goes back to your wallet.',
  'casino.inactivity_warning':
    'No play for a while: you will be disconnected in a minute. Stake, play or top up to stay.',
  'casino.close_session': 'Close session',
  'casino.leave_confirm':
    'Close the session and leave? A round in play is finished by the default strategy; the credit goes back to your wallet.',
  'casino.session_closed': 'Session closed: {amount} credited to your wallet.',
  'ev.multiplier': 'Multiplier now x{m} ({why}).',
  'ev.round_won': 'You win at x{m}: {payout} paid.',
  'ev.round_lost': 'The bank wins ({why}): stake {stake} lost.',
  'reason.mult.player_drew': 'you drew',
  'reason.mult.bank_drew': 'the bank drew',
  'reason.round.player_out': 'you played your last card',
  'reason.round.bank_out': 'the bank played its last card',
  'reason.round.pile_out': 'the draw pile ran out',
  'reason.round.no_draw_at_x1': 'no playable card at x1',
  'history.casino_won': 'won at x{m}: {payout}',
  'history.casino_lost': 'lost {stake}',
  'rules.casino.title': 'UNO CASINO — the rules',
  'rules.casino': [
    [
      'The round',
      [
        'You (the “punta”) play one round against the bank (the “banco”), for a stake within the table limits taken from your session credit. You get 4 cards, the bank 5; the first card turned is always a number card. You move first.',
        'Matching is as in UNO. A +4 is only allowed when you hold no other card of the current colour (no bluff, no challenge). Skip, Reverse, +2 and +4 make the other side lose its turn. No stacking. If you cannot play you must draw; a playable drawn card may be played at once.',
        'Whoever empties their hand wins. If the draw pile runs out and the side to move cannot play, the bank wins.',
      ],
    ],
    [
      'Payout multiplier',
      [
        [
          'Each round starts at x3. Every card you draw by choice or because you cannot play lowers it one step: x3, x2, x1.',
          'Every time the bank has to draw because it cannot play, it rises one step (never above x3).',
          'Cards taken because of a +2 or +4 do not move it. At x1 you may not draw: with no playable card the bank wins.',
          'If you win you are paid stake × multiplier (stake included: x1 returns the stake). If the bank wins the stake is lost.',
        ],
      ],
    ],
    [
      'The bank’s strategy (fixed and published)',
      [
        'No playable card: draw one and play it if possible. Otherwise the first available of: +4; +2; Skip or Reverse; the highest number of the current colour (only without that colour, a number card of the same number); Wild. Colour choice: the colour it holds most.',
      ],
    ],
    [
      'Sessions and time limits',
      [
        [
          'Money moves from your wallet into a table session (top-up); stakes and payouts move within the session; closing the session returns what is left to your wallet. Every movement is in your wallet’s ledger.',
          'Each decision has a time limit; when it runs out the default strategy decides for you.',
          'After 20 minutes without play you are warned, then disconnected. A second login closes the first.',
          'If the connection drops, the page retries for about two minutes. With no decision pending the session closes after 3 minutes, crediting your wallet.',
        ],
      ],
    ],
  ],
};

export const it = {
  // UNO CASINO
  'casino.bank': 'il banco',
  'casino.bank_cards': 'il banco ha {n} carte',
  'casino.bank_cards.one': 'il banco ha 1 carta',
  'casino.no_round': 'nessuna smazzata in corso',
  'casino.multiplier': 'Moltiplicatore di vincita',
  'casino.draws_left': 'pescate prima di x1: {n}',
  'casino.no_draws_at_x1': 'a x1 non puoi pescare',
  'casino.starts_at_x3': 'ogni smazzata parte da x3',
  'casino.you_win': 'Vinci a x{m}!',
  'casino.player_wins': '{who} vince a x{m}',
  'casino.bank_wins': 'Vince il banco',
  'casino.paid': 'pagati {payout} (puntata {stake})',
  'casino.stake_lost': 'Puntata di {stake} persa',
  'casino.cards_left': 'Le tue carte rimaste:',
  'casino.stake_is': 'puntata {stake}',
  'casino.prompt.play': 'Tocca a te: gioca una carta o pesca (il moltiplicatore scende di un gradino).',
  'casino.prompt.x1': 'A x1: gioca una carta se puoi; non è permesso pescare.',
  'casino.prompt.stuck': 'Nessuna carta giocabile.',
  'casino.prompt.bank': 'Il banco sta giocando…',
  'casino.draw_costs': 'Pesca (−1 gradino)',
  'casino.stake': 'Puntata',
  'casino.stake_eur': 'Puntata (€)',
  'casino.limits': 'Limiti del tavolo: {min} – {max}',
  'casino.stake_min': 'La puntata minima è {min}.',
  'casino.stake_max': 'La puntata massima è {max}.',
  'casino.cents_only': 'Gli importi sono in euro e centesimi: al massimo due decimali (1,23, non 1,234).',
  'casino.stake_credit': 'Credito di sessione insufficiente ({credit}): ricarica prima.',
  'casino.deal': 'Punta e distribuisci',
  'casino.deal_again': 'Punta e distribuisci ancora',
  'casino.topup': 'Ricarica',
  'casino.topup_eur': 'Ricarica la sessione (€)',
  'casino.wallet_has': 'portafoglio: {amount}',
  'casino.open_session': 'Apri una sessione',
  'casino.topup_first': 'Sposta denaro dal portafoglio al credito di sessione di questo tavolo, poi punta.',
  'casino.next_round': 'Prossima smazzata',
  'casino.session': 'Sessione',
  'casino.credit': 'Credito di sessione',
  'casino.stakes': 'Puntate',
  'casino.decision_time': 'Tempo per decisione',
  'casino.seconds': '{s} s',
  'casino.time_rules':
    'Allo scadere del tempo di una decisione, decide per te la strategia predefinita pubblicata. Dopo 20 minuti senza giocare ricevi un avviso, poi vieni disconnesso. Se perdi la connessione senza decisioni in sospeso, la sessione si chiude dopo 3 minuti e il credito torna nel portafoglio.',
  'casino.inactivity_warning':
    'Nessuna giocata da un po’: tra un minuto sarai disconnesso. Punta, gioca o ricarica per restare.',
  'casino.close_session': 'Chiudi la sessione',
  'casino.leave_confirm':
    'Chiudere la sessione e uscire? Una smazzata in corso viene completata dalla strategia predefinita; il credito torna nel portafoglio.',
  'casino.session_closed': 'Sessione chiusa: {amount} accreditati nel portafoglio.',
  'ev.multiplier': 'Moltiplicatore ora x{m} ({why}).',
  'ev.round_won': 'Vinci a x{m}: pagati {payout}.',
  'ev.round_lost': 'Vince il banco ({why}): puntata di {stake} persa.',
  'reason.mult.player_drew': 'hai pescato',
  'reason.mult.bank_drew': 'il banco ha pescato',
  'reason.round.player_out': 'hai giocato l’ultima carta',
  'reason.round.bank_out': 'il banco ha giocato l’ultima carta',
  'reason.round.pile_out': 'il mazzo è finito',
  'reason.round.no_draw_at_x1': 'nessuna carta giocabile a x1',
  'history.casino_won': 'vinta a x{m}: {payout}',
  'history.casino_lost': 'persi {stake}',
  'rules.casino.title': 'UNO CASINO — le regole',
  'rules.casino': [
    [
      'La smazzata',
      [
        'Tu (la «punta») giochi una smazzata contro il banco, per una puntata entro i limiti del tavolo presa dal credito di sessione. Ricevi 4 carte, il banco 5; la prima carta scoperta è sempre un numero. Inizi tu.',
        'Le carte rispondono come in UNO. Il +4 è ammesso solo senza altre carte del colore in tavola (niente bluff, niente contestazione). Salta, Inverti, +2 e +4 fanno perdere il turno all’avversario. Niente accumulo. Se non puoi giocare devi pescare; una carta pescata giocabile si può giocare subito.',
        'Vince chi resta senza carte. Se il mazzo finisce e chi deve muovere non può giocare, vince il banco.',
      ],
    ],
    [
      'Moltiplicatore di vincita',
      [
        [
          'Ogni smazzata parte da x3. Ogni carta che peschi, per scelta o perché non puoi giocare, lo abbassa di un gradino: x3, x2, x1.',
          'Ogni volta che il banco deve pescare perché non può giocare, sale di un gradino (mai oltre x3).',
          'Le carte prese per un +2 o un +4 non lo muovono. A x1 non puoi pescare: senza carte giocabili vince il banco.',
          'Se vinci ricevi puntata × moltiplicatore (puntata compresa: x1 restituisce la puntata). Se vince il banco la puntata è persa.',
        ],
      ],
    ],
    [
      'La strategia del banco (fissa e pubblicata)',
      [
        'Nessuna carta giocabile: pesca una carta e la gioca se può. Altrimenti la prima disponibile tra: +4; +2; Salta o Inverti; il numero più alto del colore in tavola (solo senza quel colore, un numero uguale); Jolly. Colore scelto: quello che ha di più.',
      ],
    ],
    [
      'Sessioni e tempi',
      [
        [
          'Il denaro passa dal portafoglio alla sessione del tavolo (ricarica); puntate e vincite si muovono nella sessione; chiudendo la sessione il residuo torna nel portafoglio. Ogni movimento è nel registro del portafoglio.',
          'Ogni decisione ha un tempo limite; allo scadere decide per te la strategia predefinita.',
          'Dopo 20 minuti senza giocare ricevi un avviso, poi vieni disconnesso. Un secondo accesso chiude il primo.',
          'Se cade la connessione la pagina riprova per circa due minuti. Senza decisioni in sospeso la sessione si chiude dopo 3 minuti, accreditando il portafoglio.',
        ],
      ],
    ],
  ],
};

register({ en, it });
