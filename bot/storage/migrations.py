"""The schema, as numbered migrations applied in order (see `bot.storage`).

Never edit a migration that has been released: add a new one. Times are seconds since the
epoch (UTC); sides are 0 (the variant's first side) and 1; positions are the variant's
canonical position strings. Both drivers check the list (`check_order`) and the version a
database has (`refuse_newer`) before they apply it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .interface import StorageError


class Migration(NamedTuple):
    """One step of the schema: its version number, what it does, its statements (written
    for SQLite; `bot.storage.postgres.postgres_ddl` rewrites them for PostgreSQL unless the
    step gives PostgreSQL's own statements, where the two must differ)."""

    version: int
    description: str
    statements: tuple[str, ...]
    postgres: tuple[str, ...] | None = None


INITIAL = Migration(1, "players, challenges, games, moves, outbox, ratings, vacations", (
    """CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        transport TEXT NOT NULL,            -- console, discord, email
        address TEXT NOT NULL,              -- the transport's identity: name, user id, e-mail
        display_name TEXT NOT NULL,
        preferences TEXT NOT NULL DEFAULT '{}',  -- JSON object
        vacation_until REAL,                -- set while on vacation: when it ends at the latest
        created_at REAL NOT NULL,
        UNIQUE (transport, address))""",
    "CREATE INDEX players_by_name ON players (transport, display_name COLLATE NOCASE)",
    """CREATE TABLE vacations (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players (id),
        started_at REAL NOT NULL,
        ended_at REAL)                      -- NULL while it lasts""",
    "CREATE INDEX vacations_by_player ON vacations (player_id, started_at)",
    """CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        challenger_id INTEGER NOT NULL REFERENCES players (id),
        opponent_id INTEGER REFERENCES players (id),  -- NULL: open to anyone
        place TEXT NOT NULL,
        variant TEXT NOT NULL,
        mode TEXT NOT NULL,
        side INTEGER,                       -- the challenger's side; NULL: random
        days INTEGER,                       -- days per move; NULL: no clock
        start_fen TEXT,                     -- NULL: the variant's start position
        rated INTEGER NOT NULL,
        status TEXT NOT NULL,               -- open, accepted, declined, cancelled, expired
        game_id INTEGER,
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL)""",
    "CREATE INDEX challenges_open ON challenges (status, expires_at)",
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        variant TEXT NOT NULL,
        mode TEXT NOT NULL,
        place TEXT NOT NULL,
        player0 INTEGER NOT NULL REFERENCES players (id),
        player1 INTEGER NOT NULL REFERENCES players (id),
        start_fen TEXT NOT NULL,
        fen TEXT NOT NULL,                  -- the position now
        to_move INTEGER NOT NULL,           -- the side to move in the position now
        ply INTEGER NOT NULL DEFAULT 0,     -- rows in moves: the expected move number
        turns INTEGER NOT NULL DEFAULT 0,   -- completed turns
        revision INTEGER NOT NULL DEFAULT 0,  -- changes whenever the move list changes
        status TEXT NOT NULL,               -- active, over, aborted
        result TEXT NOT NULL DEFAULT '*',   -- 1-0, 0-1, 1/2-1/2, *
        winner INTEGER,
        reason TEXT NOT NULL DEFAULT '',
        rated INTEGER NOT NULL,
        days INTEGER,                       -- days per move; NULL: no clock
        deadline REAL,                      -- when the player to move loses on time
        paused_remaining REAL,              -- seconds left while the clock is paused
        reminder_due REAL,                  -- when to remind the player to move
        draw_offer INTEGER,                 -- the side offering a draw
        takeback_offer INTEGER,             -- the side asking to take its last turn back
        challenge_id INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        ended_at REAL)""",
    "CREATE INDEX games_by_place ON games (place, status)",
    "CREATE INDEX games_by_player0 ON games (player0, status)",
    "CREATE INDEX games_by_player1 ON games (player1, status)",
    "CREATE INDEX games_deadline ON games (deadline) WHERE status = 'active'",
    "CREATE INDEX games_reminder ON games (reminder_due) WHERE status = 'active'",
    """CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,               -- 0, 1, 2, ... in the order played
        turn INTEGER NOT NULL,              -- the completed turns before this step
        side INTEGER NOT NULL,
        text TEXT NOT NULL,                 -- canonical move text, or 'end'
        fen TEXT NOT NULL,                  -- the position after it
        partial INTEGER NOT NULL,           -- 1 when the turn goes on after this step
        played_at REAL NOT NULL,
        PRIMARY KEY (game_id, ply)) WITHOUT ROWID""",
    """CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        transport TEXT NOT NULL,            -- which transport delivers it
        player_id INTEGER REFERENCES players (id),  -- the recipient, or NULL for a place
        place TEXT,                         -- the place it is about (or addressed to)
        game_id INTEGER,
        kind TEXT NOT NULL,                 -- your-move, reminder, game-over, offer, ...
        text TEXT NOT NULL,
        created_at REAL NOT NULL,
        delivered_at REAL)""",
    "CREATE INDEX outbox_pending ON outbox (transport, id) WHERE delivered_at IS NULL",
    """CREATE TABLE ratings (
        player_id INTEGER NOT NULL REFERENCES players (id),
        variant TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (player_id, variant))""",
    "CREATE INDEX ratings_board ON ratings (variant, rating DESC)",
))

EMAIL_TOKENS = Migration(2, "e-mail tokens: one secret per player of each game", (
    """CREATE TABLE game_tokens (
        game_id INTEGER NOT NULL REFERENCES games (id),
        player_id INTEGER NOT NULL REFERENCES players (id),
        token TEXT NOT NULL,                -- the secret a reply by e-mail must carry
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, player_id)) WITHOUT ROWID""",
))

SERVERS = Migration(3, "server settings and watchers of games", (
    """CREATE TABLE server_settings (
        server TEXT PRIMARY KEY,            -- transport:server id, e.g. discord:1234
        settings TEXT NOT NULL DEFAULT '{}',  -- JSON object: game channel, variants, days
        updated_at REAL NOT NULL)""",
    """CREATE TABLE watchers (
        game_id INTEGER NOT NULL REFERENCES games (id),
        player_id INTEGER NOT NULL REFERENCES players (id),
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, player_id)) WITHOUT ROWID""",
))

DELIVERY = Migration(4, "outbox deliveries: lanes, attempts, back-off and verdicts", (
    # one lane per destination and game: a lane's notifications go out in order, lanes
    # independently of each other
    "ALTER TABLE outbox ADD COLUMN lane TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE outbox ADD COLUMN next_attempt_at REAL",  # NULL: due now
    "ALTER TABLE outbox ADD COLUMN failed_at REAL",  # set with the verdict: no more tries
    "ALTER TABLE outbox ADD COLUMN failure TEXT",  # the last failure's reason
    "ALTER TABLE outbox ADD COLUMN payload TEXT",  # JSON: what a transport needs besides text
    "UPDATE outbox SET lane = COALESCE('player:' || player_id, 'place:' || place, '') "
    "|| '/' || COALESCE(game_id, '')",
    "DROP INDEX outbox_pending",
    "CREATE INDEX outbox_lanes ON outbox (transport, lane, id) "
    "WHERE delivered_at IS NULL AND failed_at IS NULL",
    "CREATE INDEX outbox_delivered ON outbox (delivered_at) WHERE delivered_at IS NOT NULL",
))

MAIL_LEDGER = Migration(5, "e-mail: challenge keys, rate limits, duplicates, invitations, stops", (
    """CREATE TABLE challenge_tokens (
        challenge_id INTEGER NOT NULL REFERENCES challenges (id),
        player_id INTEGER NOT NULL REFERENCES players (id),
        token TEXT NOT NULL,                -- the secret a reply about the challenge must carry
        created_at REAL NOT NULL,
        PRIMARY KEY (challenge_id, player_id)) WITHOUT ROWID""",
    """CREATE TABLE mail_rates (
        bucket TEXT PRIMARY KEY,            -- key:KEY or from:ADDRESS, counted separately
        window_start REAL NOT NULL,
        count INTEGER NOT NULL,
        told INTEGER NOT NULL DEFAULT 0)    -- 1 once the sender was told of the limit""",
    """CREATE TABLE mail_seen (
        digest TEXT PRIMARY KEY,            -- a Message-ID, or a key with the command it ran
        seen_at REAL NOT NULL)""",
    "CREATE INDEX mail_seen_by_time ON mail_seen (seen_at)",
    """CREATE TABLE mail_addresses (
        address TEXT PRIMARY KEY,           -- an e-mail address, lower case
        wrote_at REAL,                      -- when it first wrote to us (NULL: never)
        invited_at REAL,                    -- when a challenge was first mailed to it unasked
        stopped_at REAL)                    -- set by `stop`: never mail it again""",
))

TRANSPORT_POSTS = Migration(6, "messages a transport posted and may edit; its own state", (
    """CREATE TABLE posts (
        transport TEXT NOT NULL,            -- discord
        game_id INTEGER NOT NULL REFERENCES games (id),
        kind TEXT NOT NULL,                 -- board (the live one), draw / takeback (an offer)
        channel TEXT NOT NULL,              -- the transport's channel (or DM) id
        message TEXT NOT NULL,              -- the transport's message id
        created_at REAL NOT NULL,
        PRIMARY KEY (transport, game_id, kind, message)) WITHOUT ROWID""",
    """CREATE TABLE transport_state (
        key TEXT PRIMARY KEY,               -- e.g. discord:command-tree
        value TEXT NOT NULL,
        updated_at REAL NOT NULL)""",
))

IMPORT_CHALLENGES = Migration(9, "a challenge may carry a game record to continue", (
    # NULL: a new game; else the record of the game to continue (`import ... vs NAME`)
    "ALTER TABLE challenges ADD COLUMN record TEXT",
))

WATCH_TOKENS = Migration(11, "watch tokens: the secret of each game's web page", (
    """CREATE TABLE watch_tokens (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        token TEXT NOT NULL,                -- in the game page's address; lets people look
        created_at REAL NOT NULL)""",
))

OUTBOX_CLAIMS = Migration(12, "outbox claims: a deliverer's lease on what it is sending", (
    # set (on a database several processes share) while one deliverer sends the
    # notification: the others skip it until then; NULL: nobody is sending it
    "ALTER TABLE outbox ADD COLUMN claimed_until REAL",
))

CORRESPONDENCE = Migration(13, "private notes, conditional moves and clock choices", (
    """CREATE TABLE game_notes (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id),
        player_id INTEGER NOT NULL REFERENCES players (id),
        ply INTEGER NOT NULL,               -- the game's ply when the note was written
        text TEXT NOT NULL,
        created_at REAL NOT NULL)""",
    "CREATE INDEX game_notes_by_author ON game_notes (game_id, player_id, id)",
    """CREATE TABLE forecasts (
        game_id INTEGER NOT NULL REFERENCES games (id),
        player_id INTEGER NOT NULL REFERENCES players (id),
        ply INTEGER NOT NULL,               -- the game's ply the lines start from
        lines TEXT NOT NULL,                -- JSON: {their turn: [{our turn: {subtree}}]}
        updated_at REAL NOT NULL,
        PRIMARY KEY (game_id, player_id)) WITHOUT ROWID""",
    # a clock choice beyond days per move (`bot.service.timecontrol`), e.g. "3d+1d max10d total30d"
    "ALTER TABLE challenges ADD COLUMN time_control TEXT",
    "ALTER TABLE games ADD COLUMN time_control TEXT",
    "ALTER TABLE games ADD COLUMN bank0 REAL",  # Fischer: seconds in each side's bank
    "ALTER TABLE games ADD COLUMN bank1 REAL",
    "ALTER TABLE games ADD COLUMN spent0 REAL",  # seconds each side has used in all
    "ALTER TABLE games ADD COLUMN spent1 REAL",
))

SENT_LINES = Migration(14, "sent lines: fingerprints of the lines of each mail sent", (
    """CREATE TABLE sent_lines (
        message_id TEXT NOT NULL,           -- the Message-ID of a mail the service sent
        fingerprint TEXT NOT NULL,          -- a hash of one normalised line of its text
        created_at REAL NOT NULL,
        PRIMARY KEY (message_id, fingerprint))""",
    "CREATE INDEX sent_lines_by_age ON sent_lines (created_at)",
))

MAIL_DELIVERY = Migration(15, "e-mail: bounced addresses, mail loops, the subject of each thread", (
    "ALTER TABLE mail_addresses ADD COLUMN bounced_at REAL",  # a 5xx or a believed bounce
    "ALTER TABLE mail_addresses ADD COLUMN bounce_reason TEXT",  # what the server said
    # mails in a row answered with "no command", and the end of the silence they caused
    "ALTER TABLE mail_addresses ADD COLUMN unanswered INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE mail_addresses ADD COLUMN quiet_until REAL",
    """CREATE TABLE mail_subjects (
        thread TEXT PRIMARY KEY,            -- game:ID or challenge:ID
        subject TEXT NOT NULL,              -- the subject of its first mail, kept for good
        created_at REAL NOT NULL)""",
))

MAIL_AUTHORITY = Migration(16, "e-mail: confirmations asked of an address, and linked addresses", (
    """CREATE TABLE mail_confirmations (
        id INTEGER PRIMARY KEY,
        address TEXT NOT NULL,              -- the address asked, lower case
        token TEXT NOT NULL,                -- the one-time key its reply must carry
        command TEXT NOT NULL,              -- JSON: what a reply to it carries out
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        used_at REAL)                       -- set once carried out: never again""",
    "CREATE INDEX mail_confirmations_by_expiry ON mail_confirmations (expires_at)",
    """CREATE TABLE mail_links (
        address TEXT PRIMARY KEY,           -- a second address of a player, lower case
        player_id INTEGER NOT NULL REFERENCES players (id),
        created_at REAL NOT NULL)""",
))

TOURNAMENTS = Migration(17, "tournaments: round-robin sections, Swiss rounds, ladders", (
    """CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        variant TEXT NOT NULL,
        mode TEXT NOT NULL,
        format TEXT NOT NULL,               -- round-robin, swiss, ladder
        cycles INTEGER NOT NULL DEFAULT 1,  -- round-robin: 2 for a double round (both colours)
        rounds INTEGER,                     -- Swiss: the number of rounds (NULL: chosen at start)
        days INTEGER,                       -- the games' days per move; NULL: no clock
        time_control TEXT,                  -- the games' clock choice, as a challenge's
        rated INTEGER NOT NULL,
        size INTEGER,                       -- the most players who may sign up; NULL: any
        section_size INTEGER,               -- round-robin: the most players of one section
        round_days REAL,                    -- Swiss: days a round lasts; NULL: until its games end
        adjudication TEXT NOT NULL,         -- Swiss games unfinished at a round's deadline
        reach INTEGER,                      -- ladder: places above one may challenge
        place TEXT NOT NULL,                -- where it was created; its news goes there
        director_id INTEGER NOT NULL REFERENCES players (id),
        status TEXT NOT NULL,               -- signup, running, over, cancelled
        round INTEGER NOT NULL DEFAULT 0,   -- the round being played (0: none yet)
        signup_until REAL,                  -- sign-up closes then
        starts_at REAL,                     -- the scheduler starts it then
        round_deadline REAL,                -- Swiss: when the round being played ends
        created_at REAL NOT NULL,
        started_at REAL,
        ended_at REAL)""",
    "CREATE INDEX tournaments_by_status ON tournaments (status, starts_at)",
    """CREATE TABLE tournament_players (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        player_id INTEGER NOT NULL REFERENCES players (id),
        status TEXT NOT NULL,               -- in, withdrawn
        rating REAL,                        -- at the start (sections and pairing numbers)
        section INTEGER,                    -- round-robin: its section (1, 2, ...)
        number INTEGER,                     -- pairing number in its section; ladder: its place
        joined_at REAL NOT NULL,
        withdrawn_at REAL,
        PRIMARY KEY (tournament_id, player_id))""",
    """CREATE TABLE tournament_games (
        id INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        round INTEGER NOT NULL,             -- Swiss: its round; round-robin: its Berger round
        section INTEGER NOT NULL,
        board INTEGER NOT NULL,
        white_id INTEGER NOT NULL REFERENCES players (id),  -- the first side's player
        black_id INTEGER REFERENCES players (id),  -- NULL: a bye
        game_id INTEGER REFERENCES games (id),  -- NULL: a bye
        result TEXT,                        -- NULL while played; 1-0, 0-1, 1/2-1/2, +-, -+,
                                            -- bye, void (struck out), unplayed (adjudicated
                                            -- away: the game went on outside the tournament)
        ended_at REAL)""",
    "CREATE INDEX tournament_games_by_round ON tournament_games (tournament_id, round)",
    "CREATE UNIQUE INDEX tournament_games_by_game ON tournament_games (game_id)",
))

MIGRATIONS: tuple[Migration, ...] = (INITIAL, EMAIL_TOKENS, SERVERS, DELIVERY, MAIL_LEDGER,
                                      TRANSPORT_POSTS, IMPORT_CHALLENGES, WATCH_TOKENS,
                                      OUTBOX_CLAIMS, CORRESPONDENCE, SENT_LINES, MAIL_DELIVERY,
                                      MAIL_AUTHORITY, TOURNAMENTS)


def check_order(migrations: Sequence[Migration]) -> None:
    """Migrations must be numbered in increasing order, each number once."""
    versions = [m.version for m in migrations]
    if versions != sorted(set(versions)):
        raise StorageError("migrations must have increasing, distinct version numbers")


def refuse_newer(current: int, migrations: Sequence[Migration]) -> None:
    """A database upgraded by a newer commandpost is not touched by this one."""
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise StorageError(f"the database has schema version {current}, newer than this "
                           f"commandpost knows ({latest}); upgrade commandpost")
