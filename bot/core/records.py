"""The plain records every layer shares: a match, its events, results, statistics, settings.

No SQL, no Discord, no words for players: the store reads and writes these, the session
passes them around, the presentation layer turns them into text. Statuses and actions are
:class:`~enum.StrEnum` members, so they compare with (and are stored as) their plain values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from bot.engine import EndReason as GameEndReason
from bot.engine import Game, GameResult, MatchOptions


class Status(StrEnum):
    """Where a challenge or match stands."""

    CHALLENGE = "challenge"  # waiting for the challenged player
    PLAYING = "playing"
    FINISHED = "finished"  # with a winner
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    EXPIRED = "expired"
    CANCELLED = "cancelled"  # by a moderator, or set aside as unreadable (no result)

    @property
    def live(self) -> bool:
        """A live row holds its channel: one at most per channel."""
        return self in LIVE


LIVE = frozenset({Status.CHALLENGE, Status.PLAYING})


class EndReason(StrEnum):
    """Why a match ended, as its row keeps it (``end_reason``) and :class:`~bot.core.facts.
    MatchOver` tells it: its last game's reason when it has a winner (the engine's
    :class:`~bot.engine.EndReason` values), else why it never finished (its status), or that
    its saved state could not be read and it was set aside."""

    BORNE_OFF = "borne_off"
    DROPPED = "dropped"
    RESIGNED = "resigned"
    FORFEIT = "forfeit"  # claimed for inactivity (a walkover: never rated)
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    EXPIRED = "expired"
    CANCELLED = "cancelled"
    UNREADABLE = "unreadable"

    @classmethod
    def of_game(cls, reason: GameEndReason) -> EndReason:
        """A match won by its last game's end."""
        return cls(reason.value)

    @classmethod
    def of_status(cls, status: Status) -> EndReason:
        """A match over with no result, by its status (declined, withdrawn...)."""
        return cls(status.value)


UNREADABLE = EndReason.UNREADABLE  # the end reason of a row set aside because it was unreadable


class Action(StrEnum):
    """What happened: the event log's actions, and what a report says was done."""

    # logged events
    START = "start"
    OPENING = "opening"
    ROLL = "roll"
    MOVE = "move"
    PASS = "pass"
    DOUBLE = "double"
    TAKE = "take"
    BEAVER = "beaver"
    DROP = "drop"
    RESIGN = "resign"
    RESIGN_ACCEPT = "resign_accept"
    RESIGN_REJECT = "resign_reject"
    CLAIM = "claim"
    NEXT_GAME = "next_game"
    CANCEL = "cancel"
    # requests that log nothing of their own (or something else)
    CHALLENGE = "challenge"
    ACCEPT = "accept"
    DECLINE = "decline"
    WITHDRAW = "withdraw"
    COMPUTER = "computer"  # the computer finished a turn left open
    BOARD = "board"  # a look at the board: nothing stored
    ANALYZE = "analyze"
    REMATCH = "rematch"  # a button: another match with the same options


DICE_ACTIONS = frozenset({Action.OPENING, Action.ROLL})  # the events that draw dice


class Venue(StrEnum):
    """Where on Discord a match is played, which decides what the bot can do there.

    Only in ``SERVER`` (a server channel of a server that installed the bot) is the bot a
    member of the channel: it can post there on its own (threads, turn reminders, the
    computer's resumed turns, game reviews) and the result counts on the server's
    leaderboard. Everywhere else the app was installed by a player (a user install): the
    bot is not in the channel and every message is the answer to an interaction, so such a
    match lives on buttons alone, belongs to no server (its ``guild_id`` is 0) and is never
    rated. Discord's words: the interaction's ``context`` and its
    ``authorizing_integration_owners``.
    """

    SERVER = "server"  # a server that installed the bot (Discord context 0, guild install)
    BOT_DM = "bot_dm"  # the player's DM with the bot (context 1)
    PRIVATE = "private"  # a DM or group DM between people (context 2)
    GUEST = "guest"  # a server where only a member installed the app (context 0, user install)

    @property
    def reachable(self) -> bool:
        """Whether the bot may post in the channel without being asked (see above)."""
        return self is Venue.SERVER

    @property
    def rated(self) -> bool:
        """Whether a match here may count on a leaderboard (only on a server's own)."""
        return self is Venue.SERVER


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A stored challenge or match."""

    id: int
    guild_id: int
    channel_id: int
    status: Status
    player_ids: tuple[int, int]
    player_names: tuple[str, str]
    options: MatchOptions
    rated: bool
    computer_level: str | None
    game: Game | None
    version: int
    created_at: float
    updated_at: float
    last_action_at: float
    expires_at: float | None
    winner: int | None
    final_score: tuple[int, int] | None
    end_reason: EndReason | None
    auto_play: bool = False  # play the only legal play for the player (a table option)
    dice: DiceSeal | None = None  # the committed dice secret (None: dice not committed)
    home_channel_id: int | None = None  # where it was challenged, when it moved to a thread
    venue: Venue = Venue.SERVER  # where on Discord it is played (what the bot can do there)
    # The match's address on the web board: 128 random bits (never the row id), handed out
    # only in the channel's own messages (bot.web.access decides who it opens for).
    web_key: str | None = field(default=None, compare=False)
    # Notes beside the game, written without a new version (so not part of equality).
    board: tuple[int, int] | None = field(default=None, compare=False)  # latest board message
    notified_version: int | None = field(default=None, compare=False)  # turn last reminded

    @property
    def announce_channel_id(self) -> int:
        """Where the match's result is announced: its home channel, else its own."""
        return self.home_channel_id or self.channel_id

    @property
    def live(self) -> bool:
        return self.status in LIVE

    def player_index(self, user_id: int) -> int | None:
        if user_id == self.player_ids[0]:
            return 0
        if user_id == self.player_ids[1]:
            return 1
        return None


class ClaimRule(StrEnum):
    """What ``/backgammon claim`` wins when the opponent has been idle past the limit.

    ``MATCH`` (the default, what leagues do): in a match of more than one point the idle
    player forfeits the match, keeping the points they won; the result records the score
    reached, flagged as a forfeit, and is not rated (walkovers and forfeits are unrated, as
    leagues and FIBS-style ratings treat them). ``GAME``: the claim wins the game in
    progress (the cube's value) and the match goes on. A money game or a one-point match is a
    single game either way: the claim wins it, unrated.
    """

    MATCH = "match"
    GAME = "game"


class WebLinkRule(StrEnum):
    """Who a match's web address opens for, when its channel is one every member can see.

    ``LINK`` (the default): anyone holding the address (128 random bits, posted only in the
    channel's own messages), like an unlisted video. ``MEMBERS``: only a visitor signed in
    with Discord who can see the channel, as for every match of a channel not every member
    can see; switching to it withdraws every link of the server at once.
    """

    LINK = "link"
    MEMBERS = "members"


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices (moderators set them)."""

    threads: bool = False  # each accepted game gets its own thread
    # The language of public game messages ("fr", "en"); None follows the server's Discord
    # locale.
    language: str | None = None
    claim: ClaimRule = ClaimRule.MATCH
    web_links: WebLinkRule = WebLinkRule.LINK
    public_leaderboard: bool = False  # the web leaderboard page for anyone, not only members


class Notify(StrEnum):
    """When a player is pinged for their turn."""

    ON = "on"  # when it becomes their turn
    OFF = "off"  # never
    IDLE = "idle"  # only after they have waited ``notify_minutes`` on it


class BoardSide(StrEnum):
    """Where a player's home board is drawn on the boards they see."""

    RIGHT = "right"
    LEFT = "left"


class ThemeName(StrEnum):
    """A board's colours (``renderers.theme`` draws each)."""

    CLASSIC = "classic"
    DARK = "dark"


@dataclass(frozen=True, slots=True)
class UserSettings:
    """A player's own choices, on every server."""

    notify: Notify = Notify.ON
    notify_minutes: int = 10
    board_side: BoardSide = BoardSide.RIGHT
    theme: ThemeName = ThemeName.CLASSIC


@dataclass(frozen=True, slots=True)
class DiceSeal:
    """A match's verifiable dice: the secret committed to, the public value, dice drawn.

    The secret never leaves the bot until the match ends (see :mod:`bot.core.fairdice`).
    """

    secret: str  # 64 hex digits
    commitment: str  # its SHA-256, posted before the first roll
    public: str | None  # fixed at the accept, after the commitment
    drawn: int = 0

    def __repr__(self) -> str:  # never print the secret by accident
        return f"DiceSeal(commitment={self.commitment[:16]}..., public={self.public!r})"


@dataclass(frozen=True, slots=True)
class NewEvent:
    """One applied action, logged in the same transaction as the state it produced."""

    game_number: int
    actor_id: int | None
    player: int | None
    action: Action
    position_id: str
    gnu_match_id: str
    notation: str | None = None
    dice: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class EventRecord:
    seq: int
    game_number: int
    actor_id: int | None
    player: int | None
    action: Action
    notation: str | None
    dice: tuple[int, int] | None
    position_id: str
    gnu_match_id: str
    created_at: float


@dataclass(frozen=True, slots=True)
class FinishedGame:
    game_number: int
    result: GameResult


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How a match ended, for statistics and ratings. ``winner`` None means no result."""

    winner: int | None
    final_score: tuple[int, int]
    reason: EndReason


@dataclass(frozen=True, slots=True)
class Change:
    """Everything one action writes, applied atomically by :meth:`Store.apply`."""

    match_id: int
    expected_version: int
    status: Status
    game: Game | None
    now: float
    touch: bool = True  # whether this counts as activity (resets the inactivity clock)
    events: Sequence[NewEvent] = ()
    finished_games: Sequence[FinishedGame] = ()
    outcome: MatchOutcome | None = None
    dice_public: str | None = None  # set once, when the match starts
    dice_drawn: int | None = None  # dice drawn from the match's secret so far


@dataclass(frozen=True, slots=True)
class PlayerStats:
    guild_id: int
    user_id: int
    name: str
    rating: float
    experience: int
    rated_matches: int
    games: int
    game_wins: int
    game_losses: int
    matches: int
    match_wins: int
    match_losses: int
    gammons: int
    backgammons: int
    points_won: int
    points_lost: int
    streak: int
    best_streak: int


@dataclass(frozen=True, slots=True)
class ComputerResults:
    level: str
    games: int
    game_wins: int
    matches: int
    match_wins: int
    points_won: int
    points_lost: int


__all__ = [
    "DICE_ACTIONS",
    "LIVE",
    "UNREADABLE",
    "Action",
    "BoardSide",
    "Change",
    "ComputerResults",
    "DiceSeal",
    "EndReason",
    "EventRecord",
    "FinishedGame",
    "GuildSettings",
    "MatchOutcome",
    "MatchRow",
    "NewEvent",
    "Notify",
    "PlayerStats",
    "Status",
    "ThemeName",
    "UserSettings",
    "Venue",
    "WebLinkRule",
]
