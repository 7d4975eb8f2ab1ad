// The skeleton every game's table view shares, written once: it keeps the latest `table`
// update and this seat's legal actions (as the game reads them), sends an action and locks the
// controls until the server answers (a new update unlocks them, and so does a refusal: the
// table page calls unlock()), redraws on each update, runs the decision countdowns and drops
// what it owns (hands, countdowns) when it goes. A game's view extends it:
//   readLegal(legal, msg)  the structured legal actions as the view uses them (default: as sent)
//   draw(msg, previous)    draw the table for this update
//   lockChanged()          redraw what depends on the lock (buttons, a hand)
//   animate(msg, previous) animate the update's events (cards travelling), after draw
// What must not be covered by cards in flight (a result, a hand's end) waits with afterMotion().
import { motionDone } from '../motion.js';
import { h } from '../ui.js';

export class TableView {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.msg = null;
    this.legal = null;
    this.locked = false;
    this.owned = [];
  }

  /** Something with a destroy() (a hand, a countdown) that goes with the view; returns it. */
  own(part) {
    this.owned.push(part);
    return part;
  }

  destroy() {
    this.gone = true;
    for (const part of this.owned) part.destroy();
  }

  /** The legal actions as this game's view reads them. */
  readLegal(legal) {
    return legal || [];
  }

  /** A new update from the server: unlocked, its legal actions read once, then drawn. */
  update(msg) {
    const previous = this.msg;
    this.msg = msg;
    this.locked = false;
    this.legal = this.readLegal(msg.legal, msg);
    this.draw(msg, previous);
    // the update's events, animated as they come (cards travelling; see motion.js)
    if (previous && msg.events?.length) this.animate(msg, previous);
  }

  /**
   * Run `show` once the cards of this update have landed, unless a newer update came first
   * (it draws its own): a result or a hand's end never lies under a card in flight.
   */
  afterMotion(msg, show) {
    motionDone().then(() => {
      if (this.msg === msg && !this.gone) show();
    });
  }

  draw() {}

  /** Animate what this update's events tell (a card played, drawn, dealt); default none. */
  animate() {}

  /** Send an action's text; the controls stay locked until the server answers. */
  send(text) {
    if (!this.ctx.act(text)) {
      this.unlock();
      return false;
    }
    this.lock();
    return true;
  }

  /** A word action (draw, pass, wait...) if the legal actions allow it now. */
  word(w) {
    if (this.legal?.words?.has(w)) this.send(w);
  }

  lock() {
    this.locked = true;
    this.lockChanged();
  }

  unlock() {
    this.locked = false;
    this.lockChanged();
  }

  lockChanged() {}

  /** An action button: disabled while locked (or when `off`). */
  button(action, label, cls, onclick, off = false, ...more) {
    return h(
      'button',
      { type: 'button', class: `btn ${cls}`, 'data-action': action, disabled: this.locked || off, onclick },
      label,
      ...more,
    );
  }

  /** Show `countdown` with the time left while `running` (and a timer runs), else stop it. */
  clock(countdown, running) {
    const left = this.msg?.time_left;
    if (running && left !== null && left !== undefined)
      countdown.set(left, this.ctx.summary()?.decision_seconds);
    else countdown.set(null);
    return running && left !== null && left !== undefined ? countdown.el : null;
  }
}
