// @ts-check
// The page's one WebSocket (see Live in api.js), shared by the game page,
// the lobby and the player's identity. Made when the app starts: only
// index.html imports this module (the Rules page needs no socket).

import { Live } from './api.js';

export const live = new Live();
