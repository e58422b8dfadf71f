"""What the session hands a front end: who acts, the request's context, and reports.

Plain values, no Discord, no database and no words: the Discord cog and the terminal both
build a :class:`Player` and an :class:`ActionContext` for a request and tell the
:class:`Report` that comes back (``bot.present.tell``) as messages and board images.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.computer import PlayerAnalysis
from bot.computer.luck import MatchLuck
from bot.core.errors import Refusal, UnreadableMatchError, UserError
from bot.core.facts import Fact, Step
from bot.core.records import Action, DiceSeal, MatchRow, Status
from bot.engine import Game, GameResult


@dataclass(frozen=True, slots=True)
class Player:
    """Who is acting, as the front end knows them."""

    id: int
    name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class SessionSettings:
    challenge_timeout: float = 15 * 60.0
    inactivity_timeout: float = 60 * 60.0
    hints_in_casual: bool = True  # rated games never allow hints
    computer_retry: float = 5.0  # seconds before a failed computer turn is tried again
    analysis_cooldown: float = 30.0  # seconds a member waits between two /analyze


@dataclass(frozen=True, slots=True)
class ActionContext:
    """What a front end tells the session about one request, beside who and what.

    ``match_id``: the game the request names (a button's match); the action is refused
    unless it is still the channel's live game, checked under the channel's lock.
    ``version`` and ``game_number``: the exact state a button was posted for (the match
    row's version); refused unless the live row is still at that version. A button naming a
    running game without a version (posted by an older bot) is refused as stale.
    ``public``: mixed into the match's committed dice when this request starts the match.
    ``elsewhere``: the request comes from a front end the chat does not see (the web
    Activity): the session adds :class:`~bot.core.facts.PlayedElsewhere` to the report's facts,
    so the chat front end tells the channel as it tells its own actions.
    """

    match_id: int | None = None
    public: str | None = None  # a value fixed only now (the interaction's id), for the dice
    version: int | None = None
    game_number: int | None = None
    elsewhere: bool = False


NO_CONTEXT = ActionContext()


class QuarantinedError(UserError):
    """The channel's live game could not be read and was set aside; the channel is free."""

    def __init__(self, unreadable: UnreadableMatchError) -> None:
        super().__init__(Refusal.QUARANTINED, number=unreadable.match_id)
        self.unreadable = unreadable


@dataclass(frozen=True, slots=True)
class Review:
    """What the computer makes of a match: each human's decisions, and everyone's luck."""

    match: MatchRow
    analyses: dict[int, PlayerAnalysis]  # per human player
    luck: MatchLuck


@dataclass(slots=True)
class Report:
    """What an action did, as values, for the front end to tell and show.

    ``steps``: every logged event with the game before and after it, in order (the story,
    which ``bot.present.story.tell`` narrates in the reader's language); ``boards``: the
    states worth drawing (the end of a finished game, then the current state); ``match``:
    the row as stored, ``before`` as the action found it (None: a new challenge);
    ``actor``: who asked; ``at``: when; ``reveal``: the match's dice, when this action ended
    it and its secret may now be told; ``unreadable``: a cancel that set aside a match
    whose saved state could not be read; ``facts``: what happened, typed (the session
    publishes them on its :class:`~bot.core.facts.FactBus`).
    """

    action: Action
    match: MatchRow
    boards: list[Game] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    finished: GameResult | None = None
    match_over: bool = False
    reveal: DiceSeal | None = None
    facts: list[Fact] = field(default_factory=list)
    before: MatchRow | None = None
    actor: Player | None = None
    at: float = 0.0
    unreadable: bool = False

    @property
    def game(self) -> Game | None:
        return self.match.game

    @property
    def next_actor(self) -> int | None:
        """The player index who must act next, if a game is running."""
        if self.match.status != Status.PLAYING or self.match.game is None:
            return None
        return self.match.game.actor


__all__ = [
    "NO_CONTEXT",
    "ActionContext",
    "Player",
    "QuarantinedError",
    "Report",
    "Review",
    "SessionSettings",
]
