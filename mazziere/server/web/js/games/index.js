// The games the client knows, each in its own folder: its table view (view.js) and its words in
// both languages (messages.js, registered with i18n when imported).
import { CasinoView } from './casino/view.js';
import './poker/events.js';
import { PokerView } from './poker/view.js';
import { UnoView } from './uno/view.js';

/** The table view class for each game name the server sends. */
export const VIEWS = { uno: UnoView, casino: CasinoView, poker: PokerView };
