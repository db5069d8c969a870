// Generated from the server's Rust types by ts-rs (crates/server/tests/typescript.rs): do not edit.
// Written again with TENSORCHESS_WRITE_TS=1 cargo test -p tensorchess-server --test typescript

/**
 * A player's action on a game, as requests write its `type` and the
 * socket's `ack` and `refused` name it.
 */
export type ActionName = "move" | "takeback" | "resign" | "join" | "offer_draw" | "accept_draw" | "decline_draw" | "abort" | "claim_victory" | "rematch" | "decline_rematch" | "berserk" | "agree_draw" | "delete";

/**
 * A line of a live analysis (`analysis` messages).
 */
export type AnalysisLineView = {
/**
 * From White's point of view: `{"cp": 35}` or `{"mate": -3}`.
 */
score: { cp: number } | { mate: number },
/**
 * The line's moves in SAN.
 */
san: Array<string>,
/**
 * The same moves as move strings (RULES 4.2).
 */
uci: Array<string>,
/**
 * The first move's path, for its arrow.
 */
path: PathView | null, };

/**
 * The engine's advice for the side to move (`POST /api/games/{id}/hint`,
 * `GET /api/games/{id}/eval`).
 */
export type AnalysisView = {
/**
 * The ply of the game it was computed for.
 */
ply: number,
/**
 * The move the engine would play; `null` when there is none (the
 * game is over).
 */
best: MoveView | null,
/**
 * How the position stands.
 */
score: ScoreView, };

/**
 * The engine's better move in the position before a judged move.
 */
export type BetterMove = {
/**
 * RULES 4.2 move string.
 */
uci: string,
/**
 * The better move in SAN.
 */
san: string,
/**
 * The engine's line from that position, starting with the better move,
 * in SAN (at most [`ReviewSettings::line_plies`] moves).
 */
line_san: Array<string>,
/**
 * The same line as move strings.
 */
line_uci: Array<string>,
/**
 * Its evaluation, from White's view.
 */
eval: ReviewScore, };

/**
 * `GET /api/bots`: the bot accounts, those online first.
 */
export type BotsView = {
/**
 * Online first, each part by user name; at most
 * [`BOTS_LISTED`](crate::bot::BOTS_LISTED).
 */
bots: Array<ListedBotView>, };

/**
 * A bye of a round.
 */
export type ByeView = {
/**
 * Who had it.
 */
player: PlayerView,
/**
 * Its points: `1` (the pairing bye), `½` or `0` (a round sat out).
 */
result: PointsMark, };

/**
 * What became of a challenge, as its two players' pages are told.
 */
export type ChallengeEvent = "created" | "accepted" | "declined" | "canceled" | "expired";

/**
 * `POST /api/challenges`.
 */
export type ChallengeRequest = {
/**
 * The user name of the player challenged.
 */
to: string,
/**
 * `tensor` (default), `chess` or `chessence`.
 */
variant?: VariantKind | null,
/**
 * A real-time clock, or none.
 */
clock?: ClockRequest | null,
/**
 * Days per move (correspondence: 1, 2, 3, 5, 7 or 14), or none.
 */
days?: number | null,
/**
 * Rated (both players need accounts).
 */
rated: boolean,
/**
 * The challenger's colour: `white`, `black` or `random` (default).
 */
color?: ColorChoice | null, };

/**
 * Where a challenge stands.
 */
export type ChallengeStatus = "open" | "accepted" | "declined" | "canceled" | "expired";

/**
 * A challenge, as one of its two players sees it.
 */
export type ChallengeView = {
/**
 * Its id.
 */
id: string,
/**
 * `in` (received) or `out` (made), for the asker.
 */
direction: Direction,
/**
 * The challenger.
 */
from: RatedPlayerView,
/**
 * The player challenged.
 */
to: RatedPlayerView,
/**
 * `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * Its title.
 */
variant_title: string,
/**
 * The real-time clock; `null` for none.
 */
clock: ClockSpecView | null,
/**
 * Days per move; `null` for none.
 */
days: number | null,
/**
 * Rated or not.
 */
rated: boolean,
/**
 * The challenger's colour: `white`, `black` or `random`.
 */
color: SeekColor,
/**
 * The challenger's colour in the game: `random` drawn from the
 * challenge's (random) id, as lichess says it before acceptance.
 */
final_color: SeekColor,
/**
 * `open`, `accepted`, `declined`, `canceled` or `expired`.
 */
state: ChallengeStatus,
/**
 * The game, once accepted.
 */
game?: string,
/**
 * The reason given with a decline.
 */
reason?: string,
/**
 * When it was made (ms).
 */
created_at: number,
/**
 * When it lapses unless answered (ms).
 */
expires_at: number, };

/**
 * `GET /api/challenges`: the asker's open challenges.
 */
export type ChallengesView = {
/**
 * Received, oldest first.
 */
in: Array<ChallengeView>,
/**
 * Made, oldest first.
 */
out: Array<ChallengeView>, };

/**
 * One chat message as pages see it (its author's id is not shown).
 */
export type ChatLineView = {
/**
 * The message's number (to report it).
 */
id: number,
/**
 * `players` or `spectators`.
 */
room: ChatRoom,
/**
 * The author's name when it was written.
 */
name: string,
/**
 * The author's account (its username, for a link to the profile);
 * absent for a guest.
 */
account?: string,
/**
 * The author's seat, in the players' room.
 */
seat?: Color,
/**
 * `BOT` when the author is a bot account (shown before the name).
 */
title?: Title,
/**
 * The text, to be shown as text (never as HTML, links not made).
 */
text: string,
/**
 * When it was written (ms).
 */
at: number, };

/**
 * A chat room: one of a game's two, or a tournament's.
 */
export type ChatRoom = "players" | "spectators" | "tournament";

/**
 * A room's messages (`GET /api/games/{id}/chat?room=`).
 */
export type ChatView = {
/**
 * The room.
 */
room: ChatRoom,
/**
 * The newest messages, oldest first.
 */
lines: Array<ChatLineView>,
/**
 * Whether the asker muted the other side in this game (their lines
 * are left out here, and the page hides new ones).
 */
muted: boolean,
/**
 * Whether the asker may write in this room.
 */
can_write: boolean, };

/**
 * A time control: minutes are not enough for tests and bullet, so seconds.
 */
export type ClockRequest = {
/**
 * Time for the whole game, in seconds (1 to 10800).
 */
base_seconds: number,
/**
 * Time added after each move, in seconds (0 to 180).
 */
increment_seconds: number, };

/**
 * A time control, as requests write it.
 */
export type ClockSpecView = {
/**
 * Each side's time for the whole game, in seconds.
 */
base_seconds: number,
/**
 * Time added after each move, in seconds.
 */
increment_seconds: number, };

/**
 * The clocks after a move.
 */
export type ClockTicks = {
/**
 * White's time left (ms).
 */
white_ms: number,
/**
 * Black's time left (ms).
 */
black_ms: number,
/**
 * The colour whose clock runs, if one does.
 */
running?: Color,
/**
 * The time the side to move has left for its first move, before the
 * clocks run.
 */
first_move_ms?: number, };

/**
 * A game's clocks at the moment the view was made.
 */
export type ClockView = {
/**
 * Each side's time for the whole game, in milliseconds (for
 * correspondence: for each move).
 */
base_ms: number,
/**
 * Time added after each move, in milliseconds.
 */
increment_ms: number,
/**
 * Correspondence: days per move (each move starts the mover's time
 * again); `null` for a real-time clock.
 */
days: number | null,
/**
 * White's time left, in milliseconds (never below 0).
 */
white_ms: number,
/**
 * Black's time left, in milliseconds (never below 0).
 */
black_ms: number,
/**
 * The colour whose clock is running, if one is.
 */
running: Color | null,
/**
 * Before both sides have moved: the time the side to move has left to
 * make its first move before the game is aborted.
 */
first_move_ms: number | null, };

/**
 * A side: White moves first.
 *
 * ```
 * use tensorchess_rules::Color;
 * assert_eq!(!Color::White, Color::Black);
 * assert_eq!(Color::Black.char(), 'b');
 * ```
 */
export type Color = "white" | "black";

/**
 * A colour asked for: `white`, `black`, or `random` (drawn when the game
 * is made). Anything else is refused with the words a player reads.
 */
export type ColorChoice = SeekColor;

/**
 * A position's legal moves in the compact form.
 */
export type CompactLegal = {
/**
 * Move strings by their start: `{"e2": ["e3", "e4"]}` is `e2e3`, `e2e4`.
 */
moves: { [key in string]: Array<string> },
/**
 * The kinds a move string does not tell, by move string.
 */
special?: { [key in string]: SpecialMove },
/**
 * The paths a page does not make itself, by move string (see the module).
 */
paths?: { [key in string]: CompactPath }, };

/**
 * A path in a move event: its squares where a page can make the rest.
 */
export type CompactPath = Array<string> | PathView;

/**
 * One correspondence game in [`CorrespondenceView`].
 */
export type CorrespondenceGameView = {
/**
 * The game's id.
 */
id: string,
/**
 * `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The asker's colour.
 */
color: Color,
/**
 * The opponent's name.
 */
opponent: string,
/**
 * The asker is to move.
 */
your_turn: boolean,
/**
 * Days per move.
 */
days: number,
/**
 * The side to move's time left for this move (ms).
 */
ms_left: number,
/**
 * Plies played.
 */
ply: number, };

/**
 * `GET /api/correspondence`: the asker's correspondence games in progress.
 */
export type CorrespondenceView = {
/**
 * How many wait for the asker's move.
 */
your_turn: number,
/**
 * The games, those waiting for the asker first (least time left first).
 */
games: Array<CorrespondenceGameView>, };

/**
 * A tournament game's result as the tournament counts it (a first move
 * not made loses).
 */
export type CountedResult = "1-0" | "0-1" | "1/2-1/2" | "*";

/**
 * `POST /api/tournaments`.
 */
export type CreateTournamentRequest = {
/**
 * `arena`, `swiss` or `round_robin`.
 */
kind: KindRequest,
/**
 * 2 to 40 letters, digits, spaces, `-`, `_` or `'`.
 */
name: string,
/**
 * `tensor` (default), `chess` or `chessence`.
 */
variant?: VariantKind | null,
/**
 * Every game's clock (real time), or `null` with `days`.
 */
clock?: ClockRequest | null,
/**
 * Correspondence (a Swiss or a round robin): days per move for every
 * game (1, 2, 3, 5, 7 or 14) instead of a clock.
 */
days?: number | null,
/**
 * Rated (accounts only).
 */
rated: boolean,
/**
 * When it starts (ms since the epoch): in the future, within 30 days.
 */
starts_at: number,
/**
 * An arena's length: 10 to 180 minutes.
 */
minutes?: number | null,
/**
 * A Swiss's rounds: 3 to 15.
 */
rounds?: number | null,
/**
 * Most players: 2 to 1000 (30 for a round robin); 100 if not said.
 */
max_players?: number | null, };

/**
 * The puzzle of the day, for the home page.
 */
export type DailyPuzzle = {
/**
 * The puzzle's id (`/puzzles.html#ID` opens it).
 */
id: string,
/**
 * Its game.
 */
variant: VariantKind,
/**
 * The position before the opponent's first move.
 */
fen: string,
/**
 * The side that solves it.
 */
solver: Color,
/**
 * Its rating in the shipped file.
 */
rating: number, };

/**
 * Which way a challenge goes, for the player who sees it.
 */
export type Direction = "in" | "out";

/**
 * A local game's draw offer answered, in a word: whether the draw is
 * agreed and what the player is told follow from it.
 */
export type DrawAnswerCode = "agreed" | "accepted" | "accepted_level" | "declined_mate" | "declined_better" | "declined_play_on" | "moved_on";

/**
 * The answer to a draw offer (`POST /api/games/{id}/draw`).
 */
export type DrawAnswerView = {
/**
 * The game ended in a draw.
 */
accepted: boolean,
/**
 * The answer in a word, for translations (`draw.CODE`).
 */
code: DrawAnswerCode,
/**
 * The answer as a sentence for the player.
 */
message: string,
/**
 * The game after the answer.
 */
game: GameView, };

/**
 * How a game ended.
 */
export type EndView = {
/**
 * `1-0`, `0-1` or `1/2-1/2`.
 */
result: string,
/**
 * `checkmate`, `stalemate`, `no_legal_moves`, `repetition`, `hundred_plies`,
 * `dead_material`, `resignation`, `agreement`.
 */
reason: string,
/**
 * `white` or `black`; `null` for a draw.
 */
winner: Color | null,
/**
 * An aborted game: the side that did not make its first move in time.
 */
no_show?: Color,
/**
 * Large text over the board: "Checkmate", "Stalemate", "Draw", "White resigns".
 */
title: string,
/**
 * The line under it: "White wins", "by threefold repetition".
 */
text: string, };

/**
 * `POST /api/explain`: whether a move is legal, and if not, why.
 */
export type ExplainView = {
/**
 * The move is legal in the position; the other fields say which move
 * it is (`uci`) or why it is not (`reason`, `code`, `args`).
 */
legal: boolean,
/**
 * The move string of the legal move (also when SAN was given).
 */
uci?: string,
/**
 * Why not, as a sentence for the player.
 */
reason?: string,
/**
 * The reason in a word (`IllegalReason::code`, or `not_a_move`).
 */
code?: string,
/**
 * The reason's details by name (squares, roles, ...).
 */
args?: { [key in string]: string }, };

/**
 * The engine's evaluation of the position after a move, White's view.
 */
export type ExplorerEvalView = {
/**
 * Centipawns, positive when White is better (absent for mates).
 */
cp?: number,
/**
 * Moves to mate, positive when White mates.
 */
mate?: number,
/**
 * The depth searched, in plies.
 */
depth: number, };

/**
 * A move played from the position, and how its games ended.
 */
export type ExplorerMoveView = {
/**
 * The move string (RULES 4.2).
 */
uci: string,
/**
 * The move in standard algebraic notation.
 */
san: string,
/**
 * Games White won.
 */
white: number,
/**
 * Games drawn.
 */
draws: number,
/**
 * Games Black won.
 */
black: number,
/**
 * The players' average rating over the games with ratings (`null`
 * when none had).
 */
averageRating: number | null,
/**
 * The position after the move, as the engine sees it, once it is
 * known (computed in the background after a first ask).
 */
eval?: ExplorerEvalView, };

/**
 * What the explorer knows of a position.
 */
export type ExplorerView = {
/**
 * Games White won through the position (the moves' sum).
 */
white: number,
/**
 * Games drawn.
 */
draws: number,
/**
 * Games Black won.
 */
black: number,
/**
 * Each move played from it, the most played first.
 */
moves: Array<ExplorerMoveView>,
/**
 * The highest rated games through it, best first.
 */
topGames: Array<TopGameView>, };

/**
 * An exported game's clock, in seconds as lichess gives it.
 */
export type ExportedClockView = {
/**
 * The time each side starts with.
 */
initial: number,
/**
 * What each move adds.
 */
increment: number,
/**
 * lichess's estimate of a game's length: `initial + 40 × increment`.
 */
totalTime: number, };

/**
 * A game as lichess's JSON export shows it.
 */
export type ExportedGameView = {
/**
 * The game's id.
 */
id: string,
/**
 * Whether ratings change.
 */
rated: boolean,
/**
 * lichess's key of the game (`standard`; the site's own for the others).
 */
variant: VariantKey,
/**
 * `bullet` … `classical`, or `correspondence`.
 */
speed: Speed,
/**
 * The rating pool's key.
 */
perf: PerfKey,
/**
 * When the game was made (ms since the epoch).
 */
createdAt: number,
/**
 * When its last change was (ms since the epoch).
 */
lastMoveAt: number,
/**
 * lichess's status name (`started`, `mate`, `resign`, `draw`…).
 */
status: GameStatus,
/**
 * How the game was made, for lichess's clients (always `friend`).
 */
source: GameSource,
/**
 * Its sides.
 */
players: ExportedPlayersView,
/**
 * The moves in SAN, separated by spaces.
 */
moves: string,
/**
 * The clock, for a game with one.
 */
clock?: ExportedClockView,
/**
 * The winner's colour, for a game won.
 */
winner?: Color,
/**
 * The PGN (`pgnInJson=true`).
 */
pgn?: string, };

/**
 * Both sides of an exported game.
 */
export type ExportedPlayersView = {
/**
 * White.
 */
white: ExportedSideView,
/**
 * Black.
 */
black: ExportedSideView, };

/**
 * A side of a game in lichess's export: a player's seat (`user`,
 * `rating`, and `ratingDiff` once a rated game is over), or only a name
 * (the engine, a side of a game on one device).
 */
export type ExportedSideView = {
/**
 * The seat's player.
 */
user?: ExportedUserView,
/**
 * A player's rating in the game's variant, `null` when the game
 * had none; absent for a side no player holds.
 */
rating?: number | null,
/**
 * The player's rating change by the game.
 */
ratingDiff?: number,
/**
 * The side's name when no player holds it.
 */
name?: string, };

/**
 * A player's user in lichess's export.
 */
export type ExportedUserView = {
/**
 * Their account's user name, else their display name.
 */
name: string,
/**
 * Their id as lichess's API shows users (the user name in lower
 * case, or `guest-…`).
 */
id: string,
/**
 * `BOT` for a bot account (left out for others, as lichess does).
 */
title?: Title, };

/**
 * The featured game: who plays what.
 */
export type FeaturedGame = {
/**
 * The game's id.
 */
id: string,
/**
 * The game played.
 */
variant: VariantKind,
/**
 * White's name, as shown over the board.
 */
white: string,
/**
 * Black's name.
 */
black: string,
/**
 * White's account (its username, for a link to the profile); `None`
 * for a guest.
 */
white_account: string | null,
/**
 * Black's account.
 */
black_account: string | null,
/**
 * White's rating when the game began (rated games).
 */
white_rating: number | null,
/**
 * Black's rating when the game began (rated games).
 */
black_rating: number | null,
/**
 * Whether the game is rated.
 */
rated: boolean, };

/**
 * `GET /api/player/autocomplete?term=`: one account found by the start
 * of its name.
 */
export type FoundPlayerView = {
/**
 * The user name (`#/player/{username}` is the profile).
 */
username: string,
/**
 * The display name.
 */
name: string,
/**
 * `BOT` for a bot account; `null` otherwise.
 */
title: Title | null,
/**
 * Whether they have a page open (on any instance).
 */
online: boolean, };

/**
 * What happened to a game.
 */
export type GameEvent = "snapshot" | "update" | "move" | "takeback" | "resign" | "draw" | "draw_offer" | "draw_declined" | "abort" | "flag" | "claim_victory" | "join" | "rematch" | "rematch_offer" | "rematch_declined" | "berserk";

/**
 * `GET /api/games`: a page of the asker's games, newest first.
 */
export type GameListView = {
/**
 * At most `limit` games, the most recently changed first.
 */
games: Array<GameSummaryView>,
/**
 * Pass as `cursor` for the next page; `null` on the last one.
 */
next: string | null, };

/**
 * How a game is played.
 */
export type GameMode = "engine" | "local" | "online";

/**
 * `GET /api/games/{id}/players`: who holds each seat of an online game
 * (`null`: nobody yet).
 */
export type GamePlayersView = {
/**
 * White's player.
 */
white: PlayerView | null,
/**
 * Black's player.
 */
black: PlayerView | null, };

/**
 * A rating per game, in one pool.
 */
export type GameRatingsView = {
/**
 * Tensor Chess.
 */
tensor: RatingView,
/**
 * Chess.
 */
chess: RatingView,
/**
 * Chessence.
 */
chessence: RatingView, };

/**
 * How a game was made, for lichess's clients: here always between
 * people who chose each other (a challenge, a seek, a tournament's pairing).
 */
export type GameSource = "friend";

/**
 * A game's status, as lichess's streams and exports name it.
 */
export type GameStatus = "created" | "started" | "aborted" | "mate" | "resign" | "stalemate" | "timeout" | "draw" | "outoftime" | "noStart" | "unknownFinish" | "variantEnd";

/**
 * A line of the saved-games list.
 */
export type GameSummaryView = {
/**
 * The game's id, as in its URL.
 */
id: string,
/**
 * The game's name: `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The game's name for people.
 */
variant_title: string,
/**
 * `engine`, `local` or `online`.
 */
mode: GameMode,
/**
 * The person's colour against the engine.
 */
human_color: Color | null,
/**
 * The engine's level, 1..=6 (engine games only).
 */
level: number | null,
/**
 * White's name.
 */
white: string,
/**
 * Black's name.
 */
black: string,
/**
 * White's account (its username, for a link to the profile); `null`
 * for a guest, and off line.
 */
white_account: string | null,
/**
 * Black's account.
 */
black_account: string | null,
/**
 * `BOT` when White's player is a bot account.
 */
white_title?: Title,
/**
 * `BOT` when Black's player is a bot account.
 */
black_title?: Title,
/**
 * `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on (and for an
 * aborted game).
 */
result: string,
/**
 * How the game ended, as stored (`checkmate`, `resignation`,
 * `aborted`, ...); `null` while it goes on.
 */
end_reason: string | null,
/**
 * The game is over.
 */
finished: boolean,
/**
 * Half-moves (plies) played.
 */
move_count: number,
/**
 * Moves, as players count them (a move of each side is one).
 */
moves: number,
/**
 * When the game was made, in milliseconds since the Unix epoch.
 */
created_at: number,
/**
 * When it last changed, in milliseconds since the Unix epoch (the
 * list's order).
 */
updated_at: number,
/**
 * The side to move while the game goes on (`white`, `black`); `null`
 * once it is over.
 */
to_move: Color | null,
/**
 * The asker's side (their own list: against the engine, or a seat of
 * an online game); `null` in another player's list and on one device.
 */
you: Color | null,
/**
 * The game waits for the asker's move.
 */
your_turn: boolean,
/**
 * A correspondence game's days a move (`null`: not correspondence).
 */
days: number | null, };

/**
 * `GET /api/games/{id}/tournament`: the tournament a game was paired in.
 */
export type GameTournamentView = {
/**
 * The tournament's id (`#/tournament/ID`).
 */
id: string,
/**
 * Its name.
 */
name: string,
/**
 * A scheduled tournament's name in other languages (as in its summary).
 */
names?: { [key in string]: string },
/**
 * `arena`, `swiss` or `round_robin` (berserk is an arena's).
 */
kind: TournamentKind, };

/**
 * A game, whole: what a page shows and replays.
 */
export type GameView = {
/**
 * The game's id, as in its URL.
 */
id: string,
/**
 * The game's name: `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The game's name for people: `Tensor Chess`, `Chess`, `Chessence`.
 */
variant_title: string,
/**
 * `engine`, `local` or `online`.
 */
mode: GameMode,
/**
 * The person's colour against the engine.
 */
human_color: Color | null,
/**
 * The engine's level, 1..=6 (engine games only).
 */
level: number | null,
/**
 * The level's name for people (`Beginner` ... `Full strength`).
 */
level_name: string | null,
/**
 * White's name, as shown over the board.
 */
white: string,
/**
 * Black's name, as shown over the board.
 */
black: string,
/**
 * Grows with every change to the game.
 */
rev: number,
/**
 * The position the game started from.
 */
start_fen: string,
/**
 * The position now, with its legal moves.
 */
position: PositionView,
/**
 * The moves from ply `moves_from` on.
 */
moves: Array<HistoryEntry>,
/**
 * Set once the game is over.
 */
end: EndView | null,
/**
 * The engine is searching for its move.
 */
engine_thinking: boolean,
/**
 * When the game was made, in milliseconds since the Unix epoch.
 */
created_at: number,
/**
 * When it last changed, in milliseconds since the Unix epoch.
 */
updated_at: number,
/**
 * Seats, clocks and offers of an online game.
 */
online: OnlineView | null,
/**
 * The seat of whoever asked (`white`/`black`), in answers to one
 * player's request; `null` for spectators and in broadcasts.
 */
you: Color | null,
/**
 * `moves` holds the game's moves from this ply on. It is 0 (all the
 * moves) except in the updates of online games sent over the WebSocket,
 * which carry only the new move: a page keeps its first `moves_from`
 * moves (checking that the last of them is `moves_before`) and appends.
 */
moves_from: number,
/**
 * The move string of move `moves_from - 1`, when `moves_from > 0`.
 */
moves_before: string | null, };

/**
 * The board's shape.
 */
export type GeometryView = {
/**
 * Columns, `a` first: 10 in Tensor Chess, 8 in chess, 6 in Chessence.
 */
files: number,
/**
 * Rows, `1` first: 8, or 9 in Chessence.
 */
ranks: number,
/**
 * Squares that do not exist (Chessence).
 */
holes: Array<string>, };

/**
 * Pieces in reserve (Chessence men), by side.
 */
export type HandsView = {
/**
 * Men White may still drop (0 outside Chessence).
 */
white: number,
/**
 * Men Black may still drop (0 outside Chessence).
 */
black: number, };

/**
 * A played move in a game's history.
 */
export type HistoryEntry = {
/**
 * 0 for the first move.
 */
ply: number,
/**
 * The move string (RULES 4.2).
 */
uci: string,
/**
 * The move in standard algebraic notation, as it was played.
 */
san: string,
/**
 * The colour that played it.
 */
color: Color,
/**
 * The position after it.
 */
fen: string,
/**
 * The king in check after it, if any.
 */
check: string | null,
/**
 * How the move looked on the board.
 */
path: PathView, };

/**
 * `GET /api/info`: what the server offers.
 */
export type InfoView = {
/**
 * The server's version (its crate's).
 */
version: string,
/**
 * The games it plays.
 */
variants: Array<VariantInfo>,
/**
 * The engine's levels, weakest first.
 */
levels: Array<LevelInfo>, };

/**
 * How bad a move was.
 */
export type Judgement = "inaccuracy" | "mistake" | "blunder";

/**
 * Why a request was refused (see the module).
 */
export type Kind = "bad_request" | "unauthorized" | "not_found" | "method_not_allowed" | "misdirected_host" | "conflict" | "illegal_move" | "too_large" | "timeout" | "unsupported_media_type" | "rate_limited" | "unavailable" | "overloaded" | "internal" | "not_a_player" | "not_your_turn" | "stale" | "game_over" | "waiting" | "already_offered" | "too_soon" | "no_offer" | "too_late" | "too_early" | "not_over" | "seats_taken" | "not_online" | "not_allowed" | "not_your_room" | "account_needed" | "too_many_seeks" | "lobby_full" | "name_taken" | "banned" | "account_closed" | "forbidden_origin" | "engine_busy" | "review_running" | "too_many" | "muted" | "missing_scope" | "bot_account" | "still_open";

/**
 * `kind` of `POST /api/tournaments`.
 */
export type KindRequest = "arena" | "swiss" | "round_robin";

/**
 * The lessons of a game.
 */
export type LessonBook = {
/**
 * The game the lessons teach (`tensor`).
 */
variant: string,
/**
 * The stages, in order.
 */
stages: Array<LessonStage>, };

/**
 * What a level's moves come to.
 */
export type LessonCheckView = {
/**
 * The level's id.
 */
level: string,
/**
 * The moves that were played (all of them unless `refused`).
 */
played: number,
/**
 * The move that could not be played, and why.
 */
refused: LessonRefusal | null,
/**
 * The position now, White to move (or mated), with its legal moves.
 */
position: PositionView,
/**
 * The last move played, with its path (for the animation).
 */
last: MoveView | null,
/**
 * Marked squares reached or cleared.
 */
done_squares: Array<string>,
/**
 * Marked squares left.
 */
remaining: Array<string>,
/**
 * The level is done.
 */
goal_met: boolean,
/**
 * 1 to 3, when the goal is met.
 */
stars: number | null,
/**
 * The level's moves for three stars.
 */
par: number,
/**
 * The player's best on this level (after this try).
 */
best: LevelProgressView | null, };

/**
 * What a level asks for.
 */
export type LessonGoal = "collect" | "capture" | "mate";

/**
 * One level: a position, a goal, a par.
 */
export type LessonLevel = {
/**
 * The level's id (`beast-step-1`), as progress is stored under.
 */
id: string,
/**
 * The position, White to move.
 */
fen: string,
/**
 * What the player must do.
 */
goal: LessonGoal,
/**
 * The marked squares (collect, capture).
 */
squares: Array<string>,
/**
 * Squares whose pieces must stay (jumping an enemy beast without
 * capturing it): taking one fails the level.
 */
keep: Array<string>,
/**
 * The one kind of move the level allows (a propel, a castling...),
 * when another kind could also meet the goal.
 */
only?: LessonOnly,
/**
 * Moves for three stars.
 */
par: number,
/**
 * The instructions shown with the board.
 */
text: LessonText,
/**
 * What the level teaches, checked against the solution by the tests
 * (`step`, `hop_orthogonal`, `ricochet_rook`, `propel_knight`, ...).
 */
teaches: Array<string>, };

/**
 * The kind of move a level asks for.
 */
export type LessonOnly = "normal" | "propel" | "castle" | "beast_promotion";

/**
 * A move that could not be played, and why.
 */
export type LessonRefusal = {
/**
 * Its index in the moves sent.
 */
index: number,
/**
 * Why, in a word.
 */
kind: LessonRefusalKind,
/**
 * Why, as a sentence for the player.
 */
message: string,
/**
 * For illegal moves: the rules' reason in a word
 * ([`IllegalReason::code`](tensorchess_rules::IllegalReason::code)).
 */
code: string | null,
/**
 * For illegal moves: the reason's details by name.
 */
args: { [key in string]: string } | null, };

/**
 * Why a lesson's move could not be played (the page words each).
 */
export type LessonRefusalKind = "illegal_move" | "bad_request" | "gives_check" | "not_mate" | "wrong_kind" | "took_kept" | "goal_met" | "too_many";

/**
 * A stage: levels about one thing.
 */
export type LessonStage = {
/**
 * The stage's id.
 */
id: string,
/**
 * Its title.
 */
title: LessonText,
/**
 * The text shown before its first level.
 */
intro: LessonText,
/**
 * Its levels, in order.
 */
levels: Array<LessonLevel>, };

/**
 * A text in each of the page's languages.
 */
export type LessonText = {
/**
 * English.
 */
en: string,
/**
 * Ukrainian.
 */
uk: string, };

/**
 * The book and the asker's progress.
 */
export type LessonsView = {
/**
 * Every stage and level.
 */
book: LessonBook,
/**
 * The asker's best, by level id (levels not completed are absent).
 */
progress: { [key in string]: LevelProgressView }, };

/**
 * An engine level, in [`InfoView`].
 */
export type LevelInfo = {
/**
 * The number requests use, 1..=6.
 */
level: number,
/**
 * Its name for people (`Beginner` ... `Full strength`).
 */
name: string, };

/**
 * A player's best on a level.
 */
export type LevelProgressView = {
/**
 * 1 to 3.
 */
stars: number,
/**
 * The fewest moves the level took.
 */
moves: number, };

/**
 * One bot account on the Bots page.
 */
export type ListedBotView = {
/**
 * The user name (`#/player/{username}` is the profile).
 */
username: string,
/**
 * The display name.
 */
name: string,
/**
 * Always `BOT`.
 */
title: Title,
/**
 * Whether it has a stream (or a page) open, on any server: a bot
 * online answers challenges.
 */
online: boolean,
/**
 * Its ratings.
 */
ratings: RatingsView, };

/**
 * `GET /api/me`: the player asking.
 */
export type MeView = {
/**
 * The player's id (public: it names them in seeks and games).
 */
id: string,
/**
 * The display name.
 */
name: string,
/**
 * The account's user name; `null` for a guest.
 */
account: string | null,
/**
 * The player's ratings.
 */
ratings: RatingsView,
/**
 * Why the operator banned this player; absent when not banned.
 */
banned?: string, };

/**
 * What a move does, beyond taking a piece from one square to another.
 */
export type MoveKind = "normal" | "promotion" | "en_passant" | "castle" | "propel" | "beast_capture" | "drop";

/**
 * The move a move event carries: the game's move list entry without what
 * a page knows already (the colour: the side that was to move; the path,
 * where the page makes it from the move string and the position before).
 */
export type MovePlayed = {
/**
 * 0 for the first move.
 */
ply: number,
/**
 * The move string (RULES 4.2).
 */
uci: string,
/**
 * Its SAN.
 */
san: string,
/**
 * The position after it.
 */
fen: string,
/**
 * The king in check after it, if any.
 */
check?: string,
/**
 * Its path, where a page does not make it.
 */
path?: CompactPath, };

/**
 * A legal move, with everything a page needs to offer it.
 */
export type MoveView = {
/**
 * The move string to post back (RULES 4.2).
 */
uci: string,
/**
 * The move in standard algebraic notation, for move lists.
 */
san: string,
/**
 * `normal`, `promotion`, `en_passant`, `castle`, `propel`, `beast_capture` or `drop`.
 */
kind: MoveKind,
/**
 * The moving piece's square (the drop square for drops).
 */
from: string,
/**
 * Its destination; for a propel, the beast's square.
 */
to: string,
/**
 * A propel's beast destination, or the beast a beast capture removes.
 */
aux: string | null,
/**
 * The piece a pawn promotes to (`q`, `r`, `b`, `n`, `t`).
 */
promotion: string | null,
/**
 * The rook a castling moves.
 */
rook: string | null,
/**
 * How the move looks on the board.
 */
path: PathView, };

/**
 * A new token: the only time the token itself is shown.
 */
export type NewTokenView = {
/**
 * The token, for `Authorization: Bearer`.
 */
token: string,
/**
 * Its id (to revoke it).
 */
id: string,
/**
 * What the owner calls it.
 */
description: string,
/**
 * What it may do.
 */
scopes: Array<string>,
/**
 * When it was made (ms).
 */
created_at: number,
/**
 * When it was last used (ms, to the minute); `null`: never.
 */
last_used_at: number | null, };

/**
 * What a player of an online game does (`POST /api/games/{id}/act`, or a
 * WebSocket message with `game` and an optional `req` number besides).
 */
export type OnlineAction = { "type": "move",
/**
 * A move string (RULES 4.2) or SAN.
 */
move: string,
/**
 * Moves on the player's board before this one.
 */
ply: number, } | { "type": "resign" } | { "type": "offer_draw" } | { "type": "accept_draw" } | { "type": "decline_draw" } | { "type": "abort" } | { "type": "claim_victory" } | { "type": "rematch" } | { "type": "decline_rematch" } | { "type": "berserk" };

/**
 * What an online game adds to a [`GameView`].
 */
export type OnlineView = {
/**
 * White's seat.
 */
white: SeatView,
/**
 * Black's seat.
 */
black: SeatView,
/**
 * `null`: the game has no clock.
 */
clock: ClockView | null,
/**
 * The colour whose draw offer waits for an answer.
 */
draw_offer: Color | null,
/**
 * The colour whose rematch offer waits for an answer.
 */
rematch_offer: Color | null,
/**
 * The game this one is a rematch of.
 */
rematch_of: string | null,
/**
 * The rematch of this game, once both agreed.
 */
rematch_id: string | null,
/**
 * A player may still abort the game (before both sides have moved).
 */
can_abort: boolean,
/**
 * The result changes the players' ratings.
 */
rated: boolean,
/**
 * Rated games: each player's rating when the game began, White first.
 */
ratings: [number | null, number | null],
/**
 * Rated games, once over: how the result changed each rating.
 */
rating_diffs: [number | null, number | null],
/**
 * An arena game: which sides berserked, White first.
 */
berserked: [boolean, boolean],
/**
 * How many people watch the game without a seat, on every server
 * (each once); a `presence` event says when it changes.
 */
spectators: number, };

/**
 * A game just paired, as the tournament's topic tells it to every page
 * (`tournament_pairings`): its id and its players' ids, so that a player
 * named goes to it; the others see it with the news that follows. Each
 * page of a large arena gets every wave's games: only what it needs.
 */
export type PairedGameView = {
/**
 * The game's id (`#/game/ID`).
 */
game: string,
/**
 * White's player id.
 */
white: string,
/**
 * Black's player id.
 */
black: string, };

/**
 * A game of the tournament.
 */
export type PairingView = {
/**
 * The game's id (`#/game/ID`).
 */
game: string,
/**
 * The round (Swiss, round robin).
 */
round?: number,
/**
 * White.
 */
white: PlayerView,
/**
 * Black.
 */
black: PlayerView,
/**
 * `1-0`, `0-1`, `1/2-1/2` as the tournament counts it (a first move
 * not made loses), or `*` while it goes on (or for a game aborted
 * before aborts were refused, which counts for nobody).
 */
result: CountedResult,
/**
 * The side that did not make its first move in time (the game's
 * loser), if that is how it ended.
 */
no_show?: Color,
/**
 * White berserked.
 */
white_berserked: boolean,
/**
 * Black berserked.
 */
black_berserked: boolean,
/**
 * The game's version ([`PairingView::version`]; 0 where not told in
 * a tournament's view).
 */
v: number, };

/**
 * How a move looks on the board, for animation and arrows.
 */
export type PathView = {
/**
 * Routes in the order they are shown (a propel: the piece, then the beast).
 */
routes: Array<RouteView>,
/**
 * The square of a piece the move removes.
 */
captured: string | null, };

/**
 * A perf: what lichess keeps a rating for. Orthodox chess's are its
 * speeds; the other games each have one for real-time play and one for
 * correspondence.
 */
export type PerfKey = "tensor" | "tensorCorrespondence" | "chessence" | "chessenceCorrespondence" | Speed;

/**
 * `POST /api/position`: a position after an optional move (the rules
 * page's mini-boards).
 */
export type PlayedView = {
/**
 * The move played, with its path, as it looked before it was played.
 */
played: MoveView | null,
/**
 * The position after it (or the position asked for, without a move).
 */
position: PositionView, };

/**
 * One of a player's games.
 */
export type PlayerGameView = {
/**
 * The game.
 */
game: string,
/**
 * The round (Swiss, round robin).
 */
round?: number,
/**
 * The player's colour: `white` or `black`.
 */
color: Color,
/**
 * The opponent.
 */
opponent: PlayerView,
/**
 * The player's result as the tournament counts it: `1`, `½`, `0`,
 * `+` and `-` (a Swiss's forfeit), `*` while it goes on.
 */
result: PointsMark,
/**
 * An arena's points for it (its mark: [`SheetMarkView`]), once over.
 */
sheet?: SheetMarkView,
/**
 * The player berserked.
 */
berserked: boolean,
/**
 * The side that did not make its first move in time, if that is how
 * it ended (the player's own colour: they lost so).
 */
no_show?: Color, };

/**
 * `GET /api/tournaments/{id}/players/{player}`: a player's games in the
 * tournament, in the order they were paired (an arena's line, clicked).
 */
export type PlayerGamesView = {
/**
 * The player.
 */
player: PlayerView,
/**
 * Their games.
 */
games: Array<PlayerGameView>, };

/**
 * A player as pages show them: a name that links to the profile of an
 * account, and the `BOT` mark.
 */
export type PlayerView = {
/**
 * Their player id.
 */
id: string,
/**
 * Their name.
 */
name: string,
/**
 * Their account's user name (`#/player/NAME`, their profile); none
 * for a guest.
 */
account?: string,
/**
 * `BOT` for a bot account (shown before the name).
 */
title?: Title, };

/**
 * One move of the game, reviewed.
 */
export type PlyReview = {
/**
 * 1 for the game's first move.
 */
ply: number,
/**
 * The side that played it.
 */
mover: ReviewSide,
/**
 * The move string (RULES 4.2).
 */
uci: string,
/**
 * The move in SAN.
 */
san: string,
/**
 * Evaluation after the move, from White's view; `None` when the move
 * ended the game with a win (there is nothing left to evaluate).
 */
eval: ReviewScore | null,
/**
 * The mover's winning chances before the move, in [−1, 1].
 */
win_before: number,
/**
 * The mover's winning chances after the move, in [−1, 1].
 */
win_after: number,
/**
 * This move's accuracy, 0–100.
 */
accuracy: number,
/**
 * How bad the move was; `None` for a good enough move (or one the
 * engine had no other move to compare with).
 */
judgement: Judgement | null,
/**
 * For judged moves: what the engine preferred.
 */
better: BetterMove | null, };

/**
 * A player's result in one game or round as the standings count it (as
 * the TRF writes it).
 */
export type PointsMark = "1" | "½" | "0" | "+" | "-" | "*";

/**
 * A position with its legal moves.
 */
export type PositionView = {
/**
 * The game's name: `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The position (RULES 5).
 */
fen: string,
/**
 * The side to move: `white` or `black`.
 */
turn: Color,
/**
 * The side to move's king, when it is in check.
 */
check: string | null,
/**
 * Men in reserve, by side.
 */
hands: HandsView,
/**
 * The board's shape.
 */
geometry: GeometryView,
/**
 * What the game's rules have.
 */
rules: RulesView,
/**
 * Empty when the game is over.
 */
legal: Array<MoveView>,
/**
 * The end by the rules, judged from this position alone.
 */
outcome: EndView | null, };

/**
 * `GET /api/players/{username}`: a player's public profile.
 */
export type ProfileView = {
/**
 * The player's id.
 */
id: string,
/**
 * The display name.
 */
name: string,
/**
 * `BOT` for a bot account (played by a program); `null` otherwise.
 */
title: Title | null,
/**
 * The account's user name (as in the URL).
 */
username: string,
/**
 * When the player first came, in milliseconds since the Unix epoch.
 */
created_at: number,
/**
 * The player's ratings.
 */
ratings: RatingsView,
/**
 * Recent finished online games, newest first.
 */
games: Array<GameSummaryView>, };

/**
 * A rating as the puzzle pages show it.
 */
export type PuzzleRatingView = {
/**
 * Rounded.
 */
rating: number,
/**
 * The rating deviation, rounded.
 */
rd: number,
/**
 * Rated tries.
 */
games: number,
/**
 * Still uncertain (a deviation above 110, as lichess's puzzles).
 */
provisional: boolean, };

/**
 * What a try changed.
 */
export type PuzzleResultView = {
/**
 * The puzzle's id.
 */
id: string,
/**
 * The player found the solution.
 */
solved: boolean,
/**
 * The ratings changed (a first try outside a streak).
 */
rated: boolean,
/**
 * The player's puzzle rating after the try.
 */
player: PuzzleRatingView,
/**
 * How the player's rating changed (rounded; 0 when not rated).
 */
player_diff: number,
/**
 * The puzzle's rating after the try.
 */
puzzle: PuzzleRatingView, };

/**
 * A puzzle to solve.
 */
export type PuzzleView = {
/**
 * The puzzle's id (`GET /api/puzzles/{id}`).
 */
id: string,
/**
 * The game's name: `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The position before the opponent's move.
 */
fen: string,
/**
 * The opponent's move, then the solution (solver, opponent, …).
 */
moves: Array<string>,
/**
 * The side the player solves for.
 */
color: Color,
/**
 * What the solution does (`mateIn2`, `ricochet`, ...).
 */
themes: Array<string>,
/**
 * The puzzle's own rating.
 */
rating: PuzzleRatingView,
/**
 * The asker's puzzle rating in this game.
 */
player: PuzzleRatingView, };

/**
 * A player with their rating in the pool of a game offered (a seek, a
 * challenge).
 */
export type RatedPlayerView = {
/**
 * Their rating in the game's pool, rounded (the start for a newcomer).
 */
rating: number,
/**
 * The rating is still uncertain (a large deviation; lichess marks it so).
 */
provisional: boolean,
/**
 * Their player id.
 */
id: string,
/**
 * Their name.
 */
name: string,
/**
 * Their account's user name (`#/player/NAME`, their profile); none
 * for a guest.
 */
account?: string,
/**
 * `BOT` for a bot account (shown before the name).
 */
title?: Title, };

/**
 * A Glicko-2 rating as pages see it.
 */
export type RatingView = {
/**
 * The rating (1500 to start), rounded to hundredths.
 */
rating: number,
/**
 * The rating deviation: how uncertain the rating is, in rating
 * points (350 to start), rounded to hundredths.
 */
rd: number,
/**
 * How erratic the player's results are (0.06 to start), rounded to
 * millionths.
 */
volatility: number,
/**
 * Rated games played.
 */
games: number, };

/**
 * A player's rating in each game.
 */
export type RatingsView = {
/**
 * Tensor Chess.
 */
tensor: RatingView,
/**
 * Chess.
 */
chess: RatingView,
/**
 * Chessence.
 */
chessence: RatingView,
/**
 * The correspondence ratings (days per move), a pool of their own.
 */
correspondence: GameRatingsView, };

/**
 * A reviewed game.
 */
export type Review = {
/**
 * `tensor`, `chess` or `chessence`.
 */
variant: string,
/**
 * The position the game started from.
 */
start_fen: string,
/**
 * The move number of the first move (for printing).
 */
first_move_number: number,
/**
 * White made the first move (false when the game starts with Black
 * to move).
 */
white_first: boolean,
/**
 * How long each position was searched.
 */
budget: ReviewBudget,
/**
 * Evaluation of the start position, from White's view.
 */
start_eval: ReviewScore | null,
/**
 * Every move, in order.
 */
plies: Array<PlyReview>,
/**
 * White's accuracy and errors.
 */
white: SideSummary,
/**
 * Black's accuracy and errors.
 */
black: SideSummary, };

/**
 * The analysis budget of each position.
 */
export type ReviewBudget = { "nodes": number } | { "movetime": number };

/**
 * Progress of a review: positions analysed of all.
 */
export type ReviewProgress = {
/**
 * Positions analysed so far.
 */
done: number,
/**
 * Positions to analyse: the start and one after each move.
 */
total: number, };

/**
 * An evaluation from one side's view: centipawns, or mate in N moves
 * (negative: being mated).
 */
export type ReviewScore = { "cp": number } | { "mate": number };

/**
 * A side, for JSON.
 */
export type ReviewSide = "white" | "black";

/**
 * Where a game's review is, by name (the fields that go with each are
 * in [`ReviewStatusView`]).
 */
export type ReviewState = "none" | "queued" | "running" | "done" | "failed";

/**
 * Where a game's review is.
 */
export type ReviewStatusView = {
/**
 * The game's id.
 */
game: string,
/**
 * Where the review is.
 */
status: ReviewState,
/**
 * Positions analysed of all (queued and running).
 */
progress: ReviewProgress | null,
/**
 * The review (`done`).
 */
review: Review | null,
/**
 * Why it failed (`failed`).
 */
error: string | null, };

/**
 * One round of a player's line in a Swiss's or a round robin's
 * crosstable: the game's opponent, colour and result, or a bye.
 */
export type RoundCellView = {
/**
 * The round.
 */
round: number,
/**
 * The game (none for a bye).
 */
game?: string,
/**
 * The player's colour in it: `white` or `black` (none for a bye).
 */
color?: Color,
/**
 * The opponent's rank in the standings (none for a bye).
 */
opponent?: number,
/**
 * The player's result as the standings count it: `1`, `½`, `0`,
 * `+` and `-` (a forfeit: a first move not made), `*` while it goes
 * on; a bye's points (`1`, `½`, `0`).
 */
result: PointsMark,
/**
 * A bye (no game): the pairing bye, or a round sat out.
 */
bye?: boolean, };

/**
 * `GET /api/tournaments/{id}/round/{n}`: one round of a Swiss or a round
 * robin, its games and its byes.
 */
export type RoundView = {
/**
 * The round.
 */
round: number,
/**
 * Its games, the better players' first.
 */
pairings: Array<PairingView>,
/**
 * Its byes.
 */
byes: Array<ByeView>, };

/**
 * One piece's route during a move; `squares[0]` is where it starts.
 */
export type RouteView = {
/**
 * The piece that travels, as a FEN letter.
 */
piece: string,
/**
 * The squares it passes through, in order, ending where it stops.
 */
squares: Array<string>, };

/**
 * What a game's rules have, so that pages ask the game instead of
 * testing its name.
 */
export type RulesView = {
/**
 * Sides hold pieces in reserve and drop them (Chessence).
 */
hands: boolean,
/**
 * Tensor beasts: pass-through, ricochet, propel, hop chains.
 */
beasts: boolean,
/**
 * Kings and rooks may castle.
 */
castling: boolean,
/**
 * Kings move (they never do in Chessence).
 */
king_moves: boolean, };

/**
 * An engine score from White's point of view.
 */
export type ScoreView = {
/**
 * Centipawns, positive when White is better (absent for mates).
 */
cp: number | null,
/**
 * Moves to mate, positive when White mates.
 */
mate: number | null,
/**
 * The search depth the score came from, in plies.
 */
depth: number, };

/**
 * A seat of an online game, as everybody may see it (never its token).
 */
export type SeatView = {
/**
 * A player holds the seat.
 */
taken: boolean,
/**
 * The player has the game open now (a live WebSocket subscription).
 */
connected: boolean,
/**
 * `BOT` when a bot account holds the seat (shown before its name).
 */
title: Title | null, };

/**
 * The colour a seek's creator wants (in views, its word: `white`,
 * `black`, `random`).
 */
export type SeekColor = "white" | "black" | "random";

/**
 * `POST /api/seeks`: an open invitation to play, in the lobby.
 */
export type SeekRequest = {
/**
 * `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The time control; `null`: no clock.
 */
clock?: ClockRequest | null,
/**
 * Changes both players' ratings (both need an account).
 */
rated: boolean,
/**
 * The creator's colour: `white`, `black` or `random` (default).
 */
color?: ColorChoice | null, };

/**
 * An open seek of the lobby.
 */
export type SeekView = {
/**
 * The seek's id (`DELETE /api/seeks/{id}`, `POST .../accept`).
 */
id: string,
/**
 * The game's name: `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The game's name for people.
 */
variant_title: string,
/**
 * `null`: no clock.
 */
clock: ClockSpecView | null,
/**
 * The game will change both players' ratings.
 */
rated: boolean,
/**
 * The colour the creator plays: `white`, `black` or `random`.
 */
color: SeekColor,
/**
 * Who posted it.
 */
player: RatedPlayerView,
/**
 * When it was posted, in milliseconds since the Unix epoch.
 */
created_at: number,
/**
 * When it lapses if nobody takes it, in milliseconds since the Unix
 * epoch.
 */
expires_at: number, };

/**
 * Messages the WebSocket sends.
 *
 * The events another instance relays (a chat line, a challenge's news, a
 * game's start, a seek) are read back from its text; the others are
 * never read, and a text naming one of them is refused.
 */
export type ServerEvent = { "type": "game",
/**
 * The topic the event belongs to (`game:ID`, `lobby`).
 */
topic: string,
/**
 * What happened.
 */
event: GameEvent,
/**
 * The game after it.
 */
game: GameView, } | { "type": "move",
/**
 * The game's topic (`game:ID`).
 */
topic: string,
/**
 * The game's revision after the move.
 */
rev: number,
/**
 * The move.
 */
move: MovePlayed,
/**
 * Men in reserve after it (games with drops only).
 */
hands?: HandsView,
/**
 * The clocks after it (games with a clock or days per move).
 */
clock?: ClockTicks,
/**
 * The side whose draw offer stands (a move declines the other's).
 */
draw_offer?: Color,
/**
 * Whether a player may still abort the game (said only while one may).
 */
can_abort?: boolean,
/**
 * The side to move's legal moves (only in its own event).
 */
legal?: CompactLegal, } | { "type": "chat",
/**
 * The room's topic.
 */
topic: string,
/**
 * The line.
 */
line: ChatLineView, } | { "type": "challenge",
/**
 * Always `challenges`.
 */
topic: string,
/**
 * What happened to it.
 */
event: ChallengeEvent,
/**
 * The challenge as the receiving player sees it.
 */
challenge: ChallengeView, } | { "type": "challenges",
/**
 * Always `challenges`.
 */
topic: string,
/**
 * Received and made, open.
 */
challenges: ChallengesView, } | { "type": "tournament",
/**
 * `tournament:{id}`.
 */
topic: string,
/**
 * What happened.
 */
event: TournamentNews,
/**
 * The tournament with its standings and pairings.
 */
tournament: TournamentNewsView, } | { "type": "tournament_pairings",
/**
 * `tournament:{id}`.
 */
topic: string,
/**
 * The games just paired.
 */
pairings: Array<PairedGameView>, } | { "type": "chat_history",
/**
 * The room's topic.
 */
topic: string,
/**
 * Its newest lines.
 */
chat: ChatView, } | { "type": "subscribed",
/**
 * The topic the event belongs to (`game:ID`, `lobby`).
 */
topic: string,
/**
 * `white` or `black`.
 */
seat?: Color, } | { "type": "unsubscribed",
/**
 * The topic the event belongs to (`game:ID`, `lobby`).
 */
topic: string, } | { "type": "session_ended",
/**
 * Why, as a sentence.
 */
message: string, } | { "type": "banned",
/**
 * Why, as a sentence (the operator's reason in it).
 */
message: string, } | { "type": "pong" } | { "type": "error",
/**
 * Why, as a sentence.
 */
message: string, } | { "type": "resync",
/**
 * The topic the event belongs to (`game:ID`, `lobby`).
 */
topic: string, } | { "type": "lobby",
/**
 * The topic the event belongs to (`game:ID`, `lobby`).
 */
topic: string,
/**
 * Every open seek, oldest first.
 */
seeks: Array<SeekView>, } | { "type": "seek_added",
/**
 * The topic the event belongs to (`game:ID`, `lobby`).
 */
topic: string,
/**
 * The new seek.
 */
seek: SeekView, } | { "type": "game_started",
/**
 * The game's id.
 */
game: string, } | { "type": "seek_removed",
/**
 * The topic the event belongs to (`game:ID`, `lobby`).
 */
topic: string,
/**
 * The seeks' ids.
 */
ids: Array<string>, } | { "type": "paired",
/**
 * The topic the event belongs to (`game:ID`, `lobby`).
 */
topic: string,
/**
 * The seek's id.
 */
seek: string,
/**
 * The new game's id.
 */
game: string,
/**
 * The players' ids, White's first.
 */
players: [string, string], } | { "type": "presence",
/**
 * The topic the event belongs to (`game:ID`, `lobby`).
 */
topic: string,
/**
 * White's player has the game open.
 */
white: boolean,
/**
 * Black's player has the game open.
 */
black: boolean,
/**
 * How many people watch the game without a seat (each once).
 */
spectators: number, } | { "type": "ack",
/**
 * The client's number for the request, if it sent one.
 */
req: number | null,
/**
 * The game's id.
 */
game: string,
/**
 * The action's `type` (`move`, `resign`, ...).
 */
action: ActionName,
/**
 * The game's revision after the action.
 */
rev: number,
/**
 * Moves in the game after the action.
 */
ply: number,
/**
 * The rematch created by this action.
 */
rematch_id?: string, } | { "type": "refused",
/**
 * The client's number for the request, if it sent one.
 */
req: number | null,
/**
 * The game's id.
 */
game: string,
/**
 * The action's `type` (`move`, `resign`, ...).
 */
action: ActionName,
/**
 * Why, in a word.
 */
kind: Kind,
/**
 * Why, as a sentence.
 */
message: string,
/**
 * An illegal move: why the rules forbid it, as a sentence.
 */
reason?: string, } | { "type": "analysis",
/**
 * The client's number for the analysis.
 */
id: number,
/**
 * The position analysed.
 */
fen: string,
/**
 * The depth finished, in plies.
 */
depth: number,
/**
 * Positions searched so far.
 */
nodes: number,
/**
 * Time searched so far, in milliseconds.
 */
time_ms: number,
/**
 * Best first.
 */
lines: Array<AnalysisLineView>,
/**
 * The analysis ended: no more messages come for `id`.
 */
done: boolean, } | { "type": "analysis_refused",
/**
 * The client's number for the analysis.
 */
id: number,
/**
 * Why, in a word.
 */
kind: Kind,
/**
 * Why, as a sentence.
 */
message: string, };

/**
 * A game of an arena sheet: its points and marks.
 */
export type SheetMarkView = {
/**
 * Points it earned.
 */
points: number,
/**
 * Played on fire (points doubled).
 */
fire: boolean,
/**
 * The player berserked (whatever the result).
 */
berserk: boolean,
/**
 * The berserk earned its point: a berserked win of 14 plies or more
 * (the mark the page shows).
 */
berserk_bonus: boolean, };

/**
 * One side's summary.
 */
export type SideSummary = {
/**
 * Game accuracy, 0–100 (`None` without moves).
 */
accuracy: number | null,
/**
 * Moves judged [`Judgement::Inaccuracy`].
 */
inaccuracies: number,
/**
 * Moves judged [`Judgement::Mistake`].
 */
mistakes: number,
/**
 * Moves judged [`Judgement::Blunder`].
 */
blunders: number, };

/**
 * The site now: who is here, what is played, what comes.
 */
export type SiteView = {
/**
 * Players with a page open (a connection), on every server.
 */
players_online: number,
/**
 * Online games in progress with a player connected, on every server.
 */
games_playing: number,
/**
 * The highest-rated real-time game in progress (lichess's TV).
 */
featured: FeaturedGame | null,
/**
 * Tournaments being played (at most a few, as listed).
 */
tournaments_running: Array<TournamentSummaryView>,
/**
 * Tournaments starting soon (at most a few, soonest first).
 */
tournaments_upcoming: Array<TournamentSummaryView>,
/**
 * The puzzle of the day.
 */
puzzle: DailyPuzzle | null, };

/**
 * A special move's kind and rook (what its move string does not say).
 */
export type SpecialMove = {
/**
 * `castle` or `en_passant`.
 */
kind: MoveKind,
/**
 * The rook a castling moves.
 */
rook?: string, };

/**
 * A game's speed, as lichess names them (estimated duration: base time
 * plus 40 increments; no clock is correspondence). Serialized as
 * lichess's name ([`Speed::as_str`]).
 */
export type Speed = "ultraBullet" | "bullet" | "blitz" | "rapid" | "classical" | "correspondence";

/**
 * A line of the standings.
 */
export type StandingView = {
/**
 * 1 for the leader.
 */
rank: number,
/**
 * The player.
 */
player: PlayerView,
/**
 * Their rating when they joined.
 */
rating: number,
/**
 * Arena points; for a Swiss or round robin, half-points (a win is 2).
 */
points: number,
/**
 * An arena's points game by game (`2 2 4 0`); the results of a Swiss
 * or round robin round by round, byes with their points (`1 ½ 1 0`).
 */
points_line: string,
/**
 * An arena's sheet, game by game.
 */
sheet: Array<SheetMarkView>,
/**
 * A Swiss's or a round robin's crosstable line, round by round.
 */
rounds?: Array<RoundCellView>,
/**
 * The game they play now, if any.
 */
playing?: string,
/**
 * Games finished.
 */
games: number,
/**
 * On fire (an arena: two wins in a row), for their next game: never
 * once the tournament is over.
 */
on_fire: boolean,
/**
 * Performance rating, once they have played.
 */
performance: number | null,
/**
 * Withdrawn.
 */
withdrawn: boolean,
/**
 * Paused.
 */
paused: boolean,
/**
 * The line's version ([`StandingView::version`]): a page holding the
 * line at this version is told only its rank in the topic's news.
 */
v: number, };

/**
 * A theme and how many puzzles have it.
 */
export type ThemeView = {
/**
 * The theme (`mateIn2`, `ricochet`, ...).
 */
name: string,
/**
 * Puzzles of the game with it.
 */
count: number, };

/**
 * `GET /api/puzzles/themes`.
 */
export type ThemesView = {
/**
 * The game's name: `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The game's puzzles, in all.
 */
count: number,
/**
 * Most common first.
 */
themes: Array<ThemeView>, };

/**
 * A title shown before a player's name. The site gives one: `BOT`, to a
 * bot account (lichess writes it so too).
 */
export type Title = "BOT";

/**
 * A token as its owner's list shows it (never the token itself).
 */
export type TokenView = {
/**
 * Its id (to revoke it).
 */
id: string,
/**
 * What the owner calls it.
 */
description: string,
/**
 * What it may do.
 */
scopes: Array<string>,
/**
 * When it was made (ms).
 */
created_at: number,
/**
 * When it was last used (ms, to the minute); `null`: never.
 */
last_used_at: number | null, };

/**
 * `GET /api/account/tokens`.
 */
export type TokensView = {
/**
 * Not revoked, oldest first.
 */
tokens: Array<TokenView>, };

/**
 * A line of the news: whole, or the key and version of the line the page
 * holds (with a standing's rank now: ranks move when others score).
 */
export type Told<T, Same> = T | Same;

/**
 * A player of a top game.
 */
export type TopGamePlayer = {
/**
 * Their name, as shown over the board.
 */
name: string,
/**
 * Their rating when the game began.
 */
rating: number | null, };

/**
 * One of the highest rated games through the position.
 */
export type TopGameView = {
/**
 * The game's id.
 */
id: string,
/**
 * `white`, `black`, or `null` for a draw.
 */
winner: Color | null,
/**
 * White.
 */
white: TopGamePlayer,
/**
 * Black.
 */
black: TopGamePlayer,
/**
 * The year it was played.
 */
year: number,
/**
 * The month it was played, `YYYY-MM` (lichess's).
 */
month: string, };

/**
 * The system a tournament pairs by.
 */
export type TournamentKind = "arena" | "swiss" | "round_robin";

/**
 * What happened to a tournament, as its topic tells it and the other
 * instances hear it.
 */
export type TournamentNews = "snapshot" | "joined" | "withdrawn" | "paused" | "started" | "standings" | "paired" | "berserk" | "finished";

/**
 * The tournament topic's form of [`TournamentView`].
 */
export type TournamentNewsView = {
/**
 * The first lines of the standings, leader first.
 */
standings: Array<Told<StandingView, [string, number, number]>>,
/**
 * The best games going on (or of the round).
 */
pairings: Array<Told<PairingView, [string, number]>>,
/**
 * Lines in the whole standings.
 */
standings_total: number,
/**
 * Games going on or in the round.
 */
pairings_total: number,
/**
 * The current round (Swiss, round robin), once one is paired.
 */
round?: number,
/**
 * The game to watch.
 */
top_game: string | null,
/**
 * Its id.
 */
id: string,
/**
 * `arena`, `swiss` or `round_robin`.
 */
kind: TournamentKind,
/**
 * Its name.
 */
name: string,
/**
 * `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The game's title.
 */
variant_title: string,
/**
 * Every game's clock (zeros for correspondence).
 */
clock: ClockSpecView,
/**
 * Correspondence: days per move for every game.
 */
days?: number,
/**
 * Rated or not.
 */
rated: boolean,
/**
 * When it starts (ms).
 */
starts_at: number,
/**
 * When an arena ends (ms).
 */
ends_at?: number,
/**
 * An arena's length in minutes.
 */
minutes?: number,
/**
 * A Swiss's rounds.
 */
rounds?: number,
/**
 * Most players.
 */
max_players: number,
/**
 * Players in it (not withdrawn).
 */
players: number,
/**
 * `upcoming`, `running` or `finished`.
 */
state: TournamentState,
/**
 * The player who made it (id); `@schedule` when the server's
 * schedule made it.
 */
created_by: string,
/**
 * Made by the server's schedule (a recurring tournament).
 */
scheduled: boolean,
/**
 * A scheduled tournament's name in other languages, by language code
 * (`{"uk": "…"}`, from the schedule): a page in one of them shows it.
 */
names?: { [key in string]: string }, };

/**
 * Where a tournament stands.
 */
export type TournamentState = "upcoming" | "running" | "finished";

/**
 * A tournament in a list.
 */
export type TournamentSummaryView = {
/**
 * Its id.
 */
id: string,
/**
 * `arena`, `swiss` or `round_robin`.
 */
kind: TournamentKind,
/**
 * Its name.
 */
name: string,
/**
 * `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The game's title.
 */
variant_title: string,
/**
 * Every game's clock (zeros for correspondence).
 */
clock: ClockSpecView,
/**
 * Correspondence: days per move for every game.
 */
days?: number,
/**
 * Rated or not.
 */
rated: boolean,
/**
 * When it starts (ms).
 */
starts_at: number,
/**
 * When an arena ends (ms).
 */
ends_at?: number,
/**
 * An arena's length in minutes.
 */
minutes?: number,
/**
 * A Swiss's rounds.
 */
rounds?: number,
/**
 * Most players.
 */
max_players: number,
/**
 * Players in it (not withdrawn).
 */
players: number,
/**
 * `upcoming`, `running` or `finished`.
 */
state: TournamentState,
/**
 * The player who made it (id); `@schedule` when the server's
 * schedule made it.
 */
created_by: string,
/**
 * Made by the server's schedule (a recurring tournament).
 */
scheduled: boolean,
/**
 * A scheduled tournament's name in other languages, by language code
 * (`{"uk": "…"}`, from the schedule): a page in one of them shows it.
 */
names?: { [key in string]: string }, };

/**
 * `GET /api/tournaments/{id}`.
 */
export type TournamentView = {
/**
 * The standings, leader first.
 */
standings: Array<StandingView>,
/**
 * The games going on (an arena), or the current round's games, the
 * better players' first.
 */
pairings: Array<PairingView>,
/**
 * Lines in the whole standings (the topic's events carry the first
 * [`TOPIC_STANDINGS`]).
 */
standings_total: number,
/**
 * Games going on or in the round (the topic's events carry the first
 * [`TOPIC_PAIRINGS`]).
 */
pairings_total: number,
/**
 * The current round (Swiss, round robin), once one is paired.
 */
round?: number,
/**
 * The asker's entry, if they joined.
 */
you?: YouView,
/**
 * The game to watch: of the games going on, the one whose better
 * player ranks highest (then the other player); `null` when none goes on.
 */
top_game: string | null,
/**
 * Its id.
 */
id: string,
/**
 * `arena`, `swiss` or `round_robin`.
 */
kind: TournamentKind,
/**
 * Its name.
 */
name: string,
/**
 * `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The game's title.
 */
variant_title: string,
/**
 * Every game's clock (zeros for correspondence).
 */
clock: ClockSpecView,
/**
 * Correspondence: days per move for every game.
 */
days?: number,
/**
 * Rated or not.
 */
rated: boolean,
/**
 * When it starts (ms).
 */
starts_at: number,
/**
 * When an arena ends (ms).
 */
ends_at?: number,
/**
 * An arena's length in minutes.
 */
minutes?: number,
/**
 * A Swiss's rounds.
 */
rounds?: number,
/**
 * Most players.
 */
max_players: number,
/**
 * Players in it (not withdrawn).
 */
players: number,
/**
 * `upcoming`, `running` or `finished`.
 */
state: TournamentState,
/**
 * The player who made it (id); `@schedule` when the server's
 * schedule made it.
 */
created_by: string,
/**
 * Made by the server's schedule (a recurring tournament).
 */
scheduled: boolean,
/**
 * A scheduled tournament's name in other languages, by language code
 * (`{"uk": "…"}`, from the schedule): a page in one of them shows it.
 */
names?: { [key in string]: string }, };

/**
 * Upcoming, running and recently finished tournaments.
 */
export type TournamentsView = {
/**
 * Not started yet, soonest first.
 */
upcoming: Array<TournamentSummaryView>,
/**
 * Going on.
 */
running: Array<TournamentSummaryView>,
/**
 * Over, latest first.
 */
finished: Array<TournamentSummaryView>, };

/**
 * An imported game with its variations.
 */
export type TreeImportView = {
/**
 * The game's name: `tensor`, `chess` or `chessence`.
 */
variant: VariantKind,
/**
 * The position the game starts from (its `FEN` tag, or the game's
 * start).
 */
start_fen: string,
/**
 * The PGN's tags, in order, as `[name, value]` pairs.
 */
tags: Array<[string, string]>,
/**
 * The movetext's result: `1-0`, `0-1`, `1/2-1/2` or `*`.
 */
result: string,
/**
 * The main line, with the variations on its moves.
 */
line: TreeLineView, };

/**
 * A line: the main line or a variation.
 */
export type TreeLineView = {
/**
 * Comments before its first move.
 */
comments: Array<string>,
/**
 * Its moves, in order.
 */
moves: Array<TreeNodeView>, };

/**
 * A move of an imported line.
 */
export type TreeNodeView = {
/**
 * The move string (RULES 4.2).
 */
uci: string,
/**
 * The move in SAN, as this server writes it.
 */
san: string,
/**
 * The position after the move.
 */
fen: string,
/**
 * The king in check after it.
 */
check: string | null,
/**
 * How the move looks on the board.
 */
path: PathView,
/**
 * The move's annotation glyphs (`$2` is 2; `!`, `?` and the like are
 * read as their numbers).
 */
nags: Array<number>,
/**
 * Comments after the move.
 */
comments: Array<string>,
/**
 * Lines played instead of this move.
 */
variations: Array<TreeLineView>, };

/**
 * A game the server plays, in [`InfoView`].
 */
export type VariantInfo = {
/**
 * The name requests use: `tensor`, `chess` or `chessence`.
 */
name: VariantKind,
/**
 * The name for people.
 */
title: string,
/**
 * Its start position (RULES 5).
 */
start_fen: string,
/**
 * What its rules have.
 */
rules: RulesView, };

/**
 * A game's key in lichess's API: orthodox chess is its `standard`; the
 * others are this site's own (lichess's clients decline them as an
 * unknown variant).
 */
export type VariantKey = "standard" | "tensor" | "chessence";

/**
 * The game, as a value: for command lines, protocols and storage.
 *
 * ```
 * use tensorchess_rules::VariantKind;
 * let v: VariantKind = "tensor".parse().unwrap();
 * assert_eq!(v, VariantKind::Tensor);
 * assert_eq!(VariantKind::Chessence.to_string(), "chessence");
 * assert!("xiangqi".parse::<VariantKind>().is_err());
 * ```
 */
export type VariantKind = "tensor" | "chess" | "chessence";

/**
 * The asker's entry.
 */
export type YouView = {
/**
 * Withdrawn.
 */
withdrawn: boolean,
/**
 * Paused.
 */
paused: boolean,
/**
 * The asker's own line of the standings (also where the topic's
 * events, which carry only the first lines, leave it out).
 */
standing?: StandingView, };
