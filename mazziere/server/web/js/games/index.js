// The games the client knows, each in its own folder: its table view (view.js, built on the
// shared skeleton in table-view.js), its events and actions in words (events.js, registered with
// the shared machinery in ../events.js) and its words in both languages with its rules text
// (messages.js, registered with i18n). Importing this module registers them all.
import { CasinoView } from './casino/view.js';
import './casino/events.js';
import { PokerView } from './poker/view.js';
import './poker/events.js';
import { UnoView } from './uno/view.js';
import './uno/events.js';

/** The table view class for each game name the server sends. */
export const VIEWS = { uno: UnoView, casino: CasinoView, poker: PokerView };
