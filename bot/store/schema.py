"""The schema, as an ordered list of migrations: the SQL and the steps of each.

`bot.store.migrations` applies them in order. Never edit a released migration: append a
new one.

Money columns (``balance``, ``stack``, ``pot``) are caches of ledger sums kept by
triggers in the same transaction as the ledger row; ``bot.store.audit`` proves them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.store.hand_players import backfill
from bot.store.ledger_table import LEDGER_KINDS, ledger_kinds_again, ledger_table
from bot.store.sql import Conn

Step = str | Callable[[Conn], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    summary: str
    steps: tuple[Step, ...]


_V1_PEOPLE: tuple[Step, ...] = (
    """
    CREATE TABLE users (
        id            INTEGER PRIMARY KEY,            -- the Telegram user id
        name          TEXT    NOT NULL,
        language      TEXT,
        private_chat  INTEGER NOT NULL DEFAULT 0 CHECK (private_chat IN (0, 1)),
        balance       INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
        last_bonus_at INTEGER,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
    )
    """,
    """
    CREATE TABLE chats (
        id         INTEGER PRIMARY KEY,               -- the Telegram chat id
        settings   TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
        language   TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    )
    """,
)

_V2_TABLES: tuple[Step, ...] = (
    """
    CREATE TABLE tables (
        id         INTEGER PRIMARY KEY,
        chat_id    INTEGER NOT NULL REFERENCES chats(id),
        thread_id  INTEGER,                           -- forum topic, NULL without topics
        status     TEXT    NOT NULL DEFAULT 'lobby'
                           CHECK (status IN ('lobby', 'playing', 'closed')),
        creator    INTEGER NOT NULL REFERENCES users(id),
        rules      TEXT    NOT NULL CHECK (json_valid(rules)),
        message_id INTEGER,
        created_at INTEGER NOT NULL,
        closed_at  INTEGER
    )
    """,
    # One live table per chat and topic; closed tables stay for history.
    """
    CREATE UNIQUE INDEX tables_one_live ON tables (chat_id, ifnull(thread_id, 0))
        WHERE status != 'closed'
    """,
    """
    CREATE TABLE seats (
        table_id    INTEGER NOT NULL REFERENCES tables(id),
        user_id     INTEGER NOT NULL REFERENCES users(id),
        join_order  INTEGER NOT NULL,
        stack       INTEGER NOT NULL DEFAULT 0 CHECK (stack >= 0),
        sitting_out INTEGER NOT NULL DEFAULT 0 CHECK (sitting_out IN (0, 1)),
        leaving     INTEGER NOT NULL DEFAULT 0 CHECK (leaving IN (0, 1)),
        timeouts    INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),
        joined_at   INTEGER NOT NULL,
        PRIMARY KEY (table_id, user_id),
        UNIQUE (table_id, join_order)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX seats_by_user ON seats (user_id)",
)

_V3_KINDS = LEDGER_KINDS[:LEDGER_KINDS.index("rebuy")]
"""The kinds the ledger of version 3 knew (version 12 added the rest)."""

_V3_HANDS_AND_LEDGER: tuple[Step, ...] = (
    """
    CREATE TABLE hands (
        id           INTEGER PRIMARY KEY,
        table_id     INTEGER NOT NULL REFERENCES tables(id),
        number       INTEGER NOT NULL,
        start        TEXT    NOT NULL CHECK (json_valid(start)),
        commitment   TEXT    NOT NULL,
        reveal       TEXT    CHECK (reveal IS NULL OR json_valid(reveal)),
        started_at   INTEGER NOT NULL,
        ended_at     INTEGER,
        pot          INTEGER NOT NULL DEFAULT 0 CHECK (pot >= 0),
        status       TEXT    NOT NULL DEFAULT 'open'
                             CHECK (status IN ('open', 'settled', 'aborted')),
        result       TEXT    CHECK (result IS NULL OR json_valid(result)),
        abort_reason TEXT,
        UNIQUE (table_id, number)
    )
    """,
    "CREATE UNIQUE INDEX hands_one_open ON hands (table_id) WHERE status = 'open'",
    "CREATE INDEX hands_open ON hands (status) WHERE status = 'open'",
    """
    CREATE TABLE actions (
        hand_id INTEGER NOT NULL REFERENCES hands(id),
        seq     INTEGER NOT NULL CHECK (seq >= 1),
        action  TEXT    NOT NULL,
        at      INTEGER NOT NULL,
        PRIMARY KEY (hand_id, seq)
    ) WITHOUT ROWID
    """,
    # Double entry: a movement (``move``) is two or more rows summing to zero. The account
    # of a row is ``account`` keyed by user (balance), user + table (stack) or hand (pot);
    # the other id columns say which table and hand the movement belongs to.
    ledger_table(_V3_KINDS),
    "CREATE INDEX ledger_by_user ON ledger (user_id, id) WHERE user_id IS NOT NULL",
    "CREATE INDEX ledger_by_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL",
    # The ledger and the action log are history: refuse to rewrite them.
    """
    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END
    """,
    """
    CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END
    """,
    """
    CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
    BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END
    """,
    """
    CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
    BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END
    """,
    # Cached sums, kept by the database so no code path can forget one.
    """
    CREATE TRIGGER ledger_to_balance AFTER INSERT ON ledger WHEN NEW.account = 'balance'
    BEGIN UPDATE users SET balance = balance + NEW.delta WHERE id = NEW.user_id; END
    """,
    """
    CREATE TRIGGER ledger_to_stack AFTER INSERT ON ledger WHEN NEW.account = 'stack'
    BEGIN
        UPDATE seats SET stack = stack + NEW.delta
        WHERE table_id = NEW.table_id AND user_id = NEW.user_id;
    END
    """,
    """
    CREATE TRIGGER ledger_to_pot AFTER INSERT ON ledger WHEN NEW.account = 'pot'
    BEGIN UPDATE hands SET pot = pot + NEW.delta WHERE id = NEW.hand_id; END
    """,
)

_V4_SHOWN: tuple[Step, ...] = (
    # A short digest of what the table message shows, so a restart edits only what changed.
    "ALTER TABLE tables ADD COLUMN shown TEXT CHECK (shown IS NULL OR length(shown) <= 64)",
)

_V5_CARDS_SENT: tuple[Step, ...] = (
    # How many rounds of the hand have had their cards sent privately: a round dealt and not
    # yet sent (the process died in between) is sent after a restart.
    "ALTER TABLE hands ADD COLUMN cards_sent INTEGER NOT NULL DEFAULT 0 CHECK (cards_sent >= 0)",
)


_V6_PLAYED: tuple[Step, ...] = (
    # The group's name, for statements and charts (kept fresh as commands arrive).
    "ALTER TABLE chats ADD COLUMN title TEXT",
    # One row per player dealt into a settled hand: leaderboards and stats are sums of it.
    """
    CREATE TABLE hand_players (
        hand_id   INTEGER NOT NULL REFERENCES hands(id),
        user_id   INTEGER NOT NULL REFERENCES users(id),
        chat_id   INTEGER NOT NULL,
        net       INTEGER NOT NULL,
        won       INTEGER NOT NULL CHECK (won IN (0, 1)),
        svara     INTEGER NOT NULL CHECK (svara IN (0, 1)),
        svara_won INTEGER NOT NULL CHECK (svara_won IN (0, 1)),
        points    INTEGER,
        pot       INTEGER NOT NULL,
        at        INTEGER NOT NULL,
        PRIMARY KEY (hand_id, user_id)
    ) WITHOUT ROWID
    """,
    # /top: a chat's rows grouped by player; /stats: one player's rows in hand order.
    "CREATE INDEX hand_players_by_chat ON hand_players (chat_id, user_id, net, won, pot)",
    "CREATE INDEX hand_players_by_user ON hand_players (user_id, hand_id)",
    # /history: a chat's tables, then their hands newest first.
    "CREATE INDEX tables_by_chat ON tables (chat_id)",
    backfill,
)

_V7_NEXT_GAME: tuple[Step, ...] = (
    # /nextgame: who wants a private word when the next table opens in a chat (once).
    """
    CREATE TABLE next_game (
        chat_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL REFERENCES users(id),
        at      INTEGER NOT NULL,
        PRIMARY KEY (chat_id, user_id)
    ) WITHOUT ROWID
    """,
)

_V8_PRACTICE: tuple[Step, ...] = (
    # A practice table: a user against computer players, on chips of rows with negative
    # ids (bot.store.practice). No chip may pass between it and a real balance.
    "ALTER TABLE tables ADD COLUMN practice INTEGER NOT NULL DEFAULT 0"
    " CHECK (practice IN (0, 1))",
    """
    CREATE TRIGGER ledger_practice_apart BEFORE INSERT ON ledger
    WHEN NEW.account = 'balance' AND NEW.table_id IS NOT NULL
        AND (NEW.user_id < 0) != ifnull((SELECT practice FROM tables
                                         WHERE id = NEW.table_id), 0)
    BEGIN SELECT RAISE(ABORT, 'practice chips and real chips never mix'); END
    """,
)

_V9_NOTIFY: tuple[Step, ...] = (
    # Whether the user wants a private reminder when his turn waits (/notify on|off).
    "ALTER TABLE users ADD COLUMN notify INTEGER NOT NULL DEFAULT 1 CHECK (notify IN (0, 1))",
)

_V10_CHOSEN_LANGUAGE: tuple[Step, ...] = (
    # The language a user chose with /language in private; `language` stays his client's.
    "ALTER TABLE users ADD COLUMN chosen_language TEXT"
    " CHECK (chosen_language IS NULL OR length(chosen_language) BETWEEN 1 AND 16)",
)

_V11_CLOSING: tuple[Step, ...] = (
    # /endgame during a hand: the table closes when that hand ends, after a restart too.
    "ALTER TABLE tables ADD COLUMN closing INTEGER NOT NULL DEFAULT 0 CHECK (closing IN (0, 1))",
)

_V12_WAIT: tuple[Step, ...] = (
    # What the table waits for and until when (JSON, bot.clock.Wait): a restart keeps the
    # deadline the players saw instead of starting the wait again.
    "ALTER TABLE tables ADD COLUMN wait TEXT CHECK (wait IS NULL OR length(wait) <= 400)",
)


async def _number_hands_per_chat(conn: Conn) -> None:
    """Hand numbers count per chat, as /hand N reads them: renumber the hands played."""
    # Out of the way first, so no step of the renumbering meets UNIQUE (table_id, number).
    await conn.execute("UPDATE hands SET number = -id")
    await conn.execute(
        "UPDATE hands SET number = (SELECT count(*) FROM hands h JOIN tables t"
        " ON t.id = h.table_id WHERE t.chat_id = (SELECT chat_id FROM tables"
        " WHERE id = hands.table_id) AND h.id <= hands.id)")


_V13_FAIR_DEALING: tuple[Step, ...] = (
    # The secret each table deals from, committed to (SHA-256) before its first decision and
    # revealed when it closes, unless its settings keep it; see docs/FAIRNESS.md.
    """
    CREATE TABLE table_secrets (
        table_id   INTEGER PRIMARY KEY REFERENCES tables(id),
        secret     TEXT    NOT NULL CHECK (length(secret) = 64),
        commitment TEXT    NOT NULL CHECK (length(commitment) = 64),
        revealed   INTEGER NOT NULL DEFAULT 0 CHECK (revealed IN (0, 1))
    ) WITHOUT ROWID
    """,
    # The seed a player adds to every deal he is seated at (/seed TEXT, random by default).
    """
    CREATE TABLE player_seeds (
        user_id INTEGER PRIMARY KEY REFERENCES users(id),
        seed    TEXT    NOT NULL CHECK (length(seed) BETWEEN 1 AND 64),
        set_at  INTEGER NOT NULL
    ) WITHOUT ROWID
    """,
    # What a hand's key was derived from, besides the table secret: the deal's number at
    # the table and the hash of each seated player's seed, in seat order.
    """
    CREATE TABLE hand_proofs (
        hand_id INTEGER PRIMARY KEY REFERENCES hands(id),
        nonce   INTEGER NOT NULL CHECK (nonce >= 1),
        seeds   TEXT    NOT NULL CHECK (json_valid(seeds))
    ) WITHOUT ROWID
    """,
    _number_hands_per_chat,
)


_V14_GIFTS: tuple[Step, ...] = (
    ledger_kinds_again,
    # Who gave what from the house in which chat: the chat's daily allowance is a sum of it.
    """
    CREATE TABLE house_gifts (
        move    INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        giver   INTEGER NOT NULL REFERENCES users(id),
        amount  INTEGER NOT NULL CHECK (amount > 0),
        at      INTEGER NOT NULL
    )
    """,
    "CREATE INDEX house_gifts_by_chat ON house_gifts (chat_id, at)",
    # The @username, so /give @name finds a player who has written to the bot.
    "ALTER TABLE users ADD COLUMN username TEXT"
    " CHECK (username IS NULL OR length(username) BETWEEN 1 AND 64)",
    "CREATE INDEX users_by_username ON users (lower(username)) WHERE username IS NOT NULL",
    # Chips asked for during a player's hand, brought to his stack when it ends (amount
    # NULL: up to the table's maximum). Not money yet: they stay in his balance till then.
    """
    CREATE TABLE queued_chips (
        table_id INTEGER NOT NULL REFERENCES tables(id),
        user_id  INTEGER NOT NULL REFERENCES users(id),
        kind     TEXT    NOT NULL CHECK (kind IN ('top_up', 'rebuy')),
        amount   INTEGER CHECK (amount IS NULL OR amount > 0),
        at       INTEGER NOT NULL,
        PRIMARY KEY (table_id, user_id, kind)
    ) WITHOUT ROWID
    """,
)

_V15_RESULTS_DUE: tuple[Step, ...] = (
    # A closed table whose results message has not reached its chat yet: sent again at
    # the next start until it does (or the chat refuses it for good).
    "ALTER TABLE tables ADD COLUMN results_due INTEGER NOT NULL DEFAULT 0"
    " CHECK (results_due IN (0, 1))",
    "CREATE INDEX tables_results_due ON tables (id) WHERE results_due = 1",
)
_V17_FAIR_SEATS: tuple[Step, ...] = (
    # Whether a table reveals its secret at its close, fixed when the secret is drawn (NULL:
    # a table from before, whose close decides).
    "ALTER TABLE table_secrets ADD COLUMN reveal INTEGER"
    " CHECK (reveal IS NULL OR reveal IN (0, 1))",
    # Each seat's seed at a table, fixed at his first deal there for as long as it lasts:
    # his own (own = 1) or the default that follows from the table secret; deal is the
    # number of the table's deal it was fixed at.
    """
    CREATE TABLE table_seeds (
        table_id  INTEGER NOT NULL REFERENCES tables(id),
        user_id   INTEGER NOT NULL REFERENCES users(id),
        seed_hash TEXT    NOT NULL CHECK (length(seed_hash) = 64),
        own       INTEGER NOT NULL CHECK (own IN (0, 1)),
        deal      INTEGER NOT NULL CHECK (deal >= 1),
        fixed_at  INTEGER NOT NULL,
        PRIMARY KEY (table_id, user_id)
    ) WITHOUT ROWID
    """,
    # The scheme a hand was dealt with, and per seat where its seed came from.
    "ALTER TABLE hand_proofs ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1)",
    "ALTER TABLE hand_proofs ADD COLUMN seats TEXT CHECK (seats IS NULL OR json_valid(seats))",
)

_READINESS_PROBE: tuple[Step, ...] = (
    # One row the readiness probe rewrites with fresh bytes every few seconds: a commit of
    # it proves a press could be saved now (a full disk, a read-only file system or a
    # locked database refuse it as they would refuse the press). See bot/ops/health.py.
    """
    CREATE TABLE readiness (
        id    INTEGER PRIMARY KEY CHECK (id = 1),
        at    INTEGER NOT NULL,
        bytes BLOB    NOT NULL CHECK (length(bytes) <= 4096)
    )
    """,
)

_STAKES_AS_SEATED: tuple[Step, ...] = (
    # The ante and the largest buy-in of the table as the player sat down: whether he is
    # broke (and how big his rebuy may be) is judged by these, so a change of the table's
    # stakes after he sat cannot make him broke. NULL for seats taken before they existed.
    "ALTER TABLE seats ADD COLUMN sat_ante INTEGER CHECK (sat_ante IS NULL OR sat_ante > 0)",
    "ALTER TABLE seats ADD COLUMN sat_most INTEGER CHECK (sat_most IS NULL OR sat_most > 0)",
    # A seat taken before: the table's stakes as they are at the upgrade.
    """
    UPDATE seats SET
        sat_ante = (SELECT CASE WHEN CAST(json_extract(t.rules, '$.ante') AS INTEGER) > 0
                           THEN CAST(json_extract(t.rules, '$.ante') AS INTEGER) END
                    FROM tables t WHERE t.id = seats.table_id AND json_valid(t.rules)),
        sat_most = (SELECT CASE WHEN CAST(json_extract(t.rules, '$.ante') AS INTEGER) > 0
                             AND CAST(json_extract(t.rules, '$.max_buy_in_antes') AS INTEGER) > 0
                           THEN CAST(json_extract(t.rules, '$.ante') AS INTEGER)
                                * CAST(json_extract(t.rules, '$.max_buy_in_antes') AS INTEGER)
                           END
                    FROM tables t WHERE t.id = seats.table_id AND json_valid(t.rules))
    """,
    # The house's chips a user received (rebuys and gifts), summed per user over a day.
    "CREATE INDEX ledger_house_by_user ON ledger (user_id, at)"
    " WHERE kind IN ('rebuy', 'house_gift') AND account IN ('stack', 'balance')",
    "CREATE INDEX house_gifts_by_giver ON house_gifts (giver, at)",
)

_V19_TOPICS: tuple[Step, ...] = (
    # The forum topics a chat's admins keep the bot to, as a JSON list of thread ids (0:
    # the General topic); NULL: the bot answers in every topic.
    "ALTER TABLE chats ADD COLUMN topics TEXT CHECK (topics IS NULL OR json_valid(topics))",
)

_V20_ACHIEVEMENTS: tuple[Step, ...] = (
    # The badges a player earned (bot.achievements), each once, wherever he plays, with
    # the chat and the hand that earned it; written with that hand's settlement.
    """
    CREATE TABLE achievements (
        user_id INTEGER NOT NULL REFERENCES users(id) CHECK (user_id > 0),
        badge   TEXT    NOT NULL CHECK (length(badge) BETWEEN 1 AND 32),
        chat_id INTEGER NOT NULL,
        hand_id INTEGER NOT NULL REFERENCES hands(id),
        at      INTEGER NOT NULL,
        PRIMARY KEY (user_id, badge)
    )
    """,
    "CREATE INDEX achievements_by_hand ON achievements (hand_id)",
)

_V21_SEASONS: tuple[Step, ...] = (
    # A chat's closed seasons (bot.seasons): the period, its length, the champion and his
    # points (NULL and 0 for a season nobody scored in), written in one transaction when
    # it closes. announce_due: the champion's announcement has not reached the chat yet,
    # sent again while the bot runs and at the next start until it does (or the chat
    # refuses it for good).
    """
    CREATE TABLE seasons (
        chat_id      INTEGER NOT NULL,
        starts       INTEGER NOT NULL,
        ends         INTEGER NOT NULL CHECK (ends > starts),
        length       TEXT    NOT NULL CHECK (length IN ('week', 'month', 'quarter')),
        champion     INTEGER REFERENCES users(id) CHECK (champion IS NULL OR champion > 0),
        points       INTEGER NOT NULL DEFAULT 0 CHECK (points >= 0),
        won          INTEGER NOT NULL DEFAULT 0 CHECK (won >= 0),
        closed_at    INTEGER NOT NULL,
        announce_due INTEGER NOT NULL DEFAULT 0 CHECK (announce_due IN (0, 1)),
        PRIMARY KEY (chat_id, starts),
        CHECK ((champion IS NULL) = (points = 0)),
        CHECK (champion IS NOT NULL OR announce_due = 0)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX seasons_announce_due ON seasons (chat_id) WHERE announce_due = 1",
    # A season's standings: a chat's rows within a stretch of time.
    "CREATE INDEX hand_players_by_chat_time ON hand_players (chat_id, at)",
)

_V22_TOURNAMENTS: tuple[Step, ...] = (
    # The pool of a tournament is a ledger account of its table ('pool'); its buy-ins,
    # refunds and prizes, and the issue and withdrawal of its own chips, are new kinds.
    ledger_kinds_again,
    # A sit-and-go tournament played at a table (bot.tournament): what it is played for,
    # how far it is, and its level's deadline with levels by minutes, so a restart keeps
    # the level and its deadline. hands: hands settled since it started.
    """
    CREATE TABLE tournaments (
        table_id    INTEGER PRIMARY KEY REFERENCES tables(id),
        schedule    TEXT    NOT NULL CHECK (json_valid(schedule)),
        status      TEXT    NOT NULL DEFAULT 'registering'
                            CHECK (status IN ('registering', 'running', 'finished',
                                              'cancelled')),
        level       INTEGER NOT NULL DEFAULT 0 CHECK (level >= 0),
        level_ends  INTEGER,
        hands       INTEGER NOT NULL DEFAULT 0 CHECK (hands >= 0),
        started_at  INTEGER,
        finished_at INTEGER
    ) WITHOUT ROWID
    """,
    # Each entrant's place, written with the hand that put him out (the winner's with the
    # last hand), and the prize the pool paid him in that transaction.
    """
    CREATE TABLE tournament_places (
        table_id INTEGER NOT NULL REFERENCES tournaments(table_id),
        user_id  INTEGER NOT NULL REFERENCES users(id),
        place    INTEGER NOT NULL CHECK (place >= 1),
        prize    INTEGER NOT NULL DEFAULT 0 CHECK (prize >= 0),
        hand_id  INTEGER REFERENCES hands(id),
        chat_id  INTEGER NOT NULL,
        at       INTEGER NOT NULL,
        PRIMARY KEY (table_id, user_id),
        UNIQUE (table_id, place)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX tournament_places_by_chat ON tournament_places (chat_id, at)",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "users and chats", _V1_PEOPLE),
    Migration(2, "tables and seats", _V2_TABLES),
    Migration(3, "hands, action log and the double-entry ledger", _V3_HANDS_AND_LEDGER),
    Migration(4, "the digest of the table message as last shown", _V4_SHOWN),
    Migration(5, "rounds whose cards went out privately", _V5_CARDS_SENT),
    Migration(6, "group names and per-player hand results", _V6_PLAYED),
    Migration(7, "who waits for the next table of a chat", _V7_NEXT_GAME),
    Migration(8, "practice tables, their chips apart from real balances", _V8_PRACTICE),
    Migration(9, "private turn reminders per user", _V9_NOTIFY),
    Migration(10, "the language a user chose, apart from his client's", _V10_CHOSEN_LANGUAGE),
    Migration(11, "a table asked to close when its hand ends", _V11_CLOSING),
    Migration(12, "what a table waits for, with its deadline", _V12_WAIT),
    Migration(13, "fair dealing: table secrets, player seeds, hand numbers per chat",
              _V13_FAIR_DEALING),
    Migration(14, "rebuys and gifts in the ledger, the house's gifts per chat, usernames,"
                  " chips queued for the next hand",
              _V14_GIFTS),
    Migration(15, "a closed table's results message still to be delivered", _V15_RESULTS_DUE),
    Migration(16, "the readiness probe's own row", _READINESS_PROBE),
    Migration(17, "fair dealing: a seat's seed fixed per table, the reveal fixed at the open,"
                  " each proof's version", _V17_FAIR_SEATS),
    Migration(18, "the stakes a player sat down at; the house's chips per user and day",
              _STAKES_AS_SEATED),
    Migration(19, "the forum topics a chat keeps the bot to", _V19_TOPICS),
    Migration(20, "the badges players earned", _V20_ACHIEVEMENTS),
    Migration(21, "each chat's closed seasons and their champions", _V21_SEASONS),
    Migration(22, "sit-and-go tournaments: their pools, their chips and their places",
              _V22_TOURNAMENTS),
)
LATEST = len(MIGRATIONS)
