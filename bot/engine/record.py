"""One position to analyse, whatever wrote it down: :class:`PositionRecord`.

Players paste positions from other programs as eXtreme Gammon's XGID or as GNU Backgammon's
Position ID with an optional Match ID. Both say the same things (the checkers, who is on
roll, the dice, the cube, the score and the rules), so both read into one frozen value that
checks the state is one a game can be in, builds an engine :class:`~bot.engine.game.Game` to
analyse, and prints itself back in either form.

The players are GNU Backgammon's: 0 and 1, as in the Match ID and in :class:`Game`. An XGID
says "bottom" and "top" instead; the bottom player (capital letters) is player 1, as GNU
Backgammon maps them when it reads an XGID (``set xgid``), so a record read from one form and
written in the other names the same player on roll, the same cube owner and the same score.

Imports the engine only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.engine.errors import EngineErrorCode as Code
from bot.engine.errors import InvalidIdError, NotAllowedNowError
from bot.engine.game import MAX_CUBE, MAX_MATCH_LENGTH, Game, MatchOptions, Phase
from bot.engine.match_id import GAME_NONE, GAME_PLAYING, MatchIdFields
from bot.engine.moves import Dice
from bot.engine.position import CHECKERS, Position
from bot.engine.xgid import DEFAULT_MAX_CUBE_LOG2, XgidFields, XgOffer

# The words around IDs that GNU Backgammon shows or copies ("Position ID: ... Match ID: ..."),
# skipped so a pasted line reads as its two IDs.
_GNU_LABELS = frozenset({"gnu", "gnubg", "backgammon", "position", "match", "id"})
_SEPARATORS = re.compile(r"[\s:,;`'\"]+")
_QUOTES = "`'\""  # Discord's code marks and quotes around a pasted ID
_XGID_START = re.compile("XGID=", re.IGNORECASE)
_DICE = re.compile(r"\s*([1-6])\s*[-/,x ]?\s*([1-6])\s*", re.IGNORECASE)


def parse_dice(text: str) -> Dice:
    """A roll as players write it: ``52``, ``5-2``, ``5 2``, ``5,2`` or ``5x2`` (larger first).

    >>> parse_dice("2-5")
    (5, 2)

    Raises :class:`InvalidIdError` (``DICE_INVALID``) for anything else.
    """
    found = _DICE.fullmatch(text)
    if found is None:
        raise InvalidIdError(
            f"{text!r} is not a roll: two dice from 1 to 6", Code.DICE_INVALID, dice=text[:20]
        )
    high, low = sorted((int(found[1]), int(found[2])), reverse=True)
    return high, low


class CubeOffer(StrEnum):
    """A cube action waiting for an answer."""

    DOUBLE = "double"  # the player on roll doubled: the opponent takes, drops (or beavers)
    BEAVER = "beaver"  # the opponent beavered: the doubler takes or drops the beaver


_XG_OFFERS = {CubeOffer.DOUBLE: XgOffer.DOUBLE, CubeOffer.BEAVER: XgOffer.BEAVER}
_FROM_XG = {xg: offer for offer, xg in _XG_OFFERS.items()}


@dataclass(frozen=True, slots=True)
class PositionRecord:
    """A game state to analyse, as an XGID or GNU Backgammon's IDs write it.

    ``position`` is seen by ``on_roll``, who is also the doubler while an ``offer`` waits.
    ``cube`` and ``cube_owner`` are the cube before any offer (both IDs write it so); ``dice``
    are None before the roll and kept larger first, as GNU Backgammon writes them. ``score``
    is (player 0, player 1); ``length`` 0 is a money game, where ``jacoby`` and ``beavers``
    are the rules. Building one checks that the state can happen and raises
    :class:`~bot.engine.errors.InvalidIdError` when it cannot.

    >>> record = PositionRecord.parse('XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10')
    >>> record.on_roll, record.dice, record.length, record.position == Position.start()
    (1, (5, 2), 5, True)
    >>> record.position_id(), record.match_id()
    ('4HPwATDgc/ABMA', 'cImqAAAAAAAE')
    >>> PositionRecord.parse('4HPwATDgc/ABMA:cImqAAAAAAAE').xgid()
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10'
    """

    position: Position
    on_roll: int = 1
    dice: Dice | None = None
    cube: int = 1
    cube_owner: int | None = None
    score: tuple[int, int] = (0, 0)
    length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    cube_in_use: bool = True
    offer: CubeOffer | None = None

    def __post_init__(self) -> None:
        if self.on_roll not in (0, 1) or self.cube_owner not in (None, 0, 1):
            raise ValueError(f"players are 0 or 1: on_roll={self.on_roll!r}, {self.cube_owner!r}")
        if self.dice is not None:
            if len(self.dice) != 2 or not all(1 <= die <= 6 for die in self.dice):
                raise InvalidIdError(
                    f"{self.dice!r} is not a roll: two dice from 1 to 6",
                    Code.DICE_INVALID,
                    dice="".join(str(die) for die in self.dice),
                )
            # Larger first, as GNU Backgammon writes them: one roll, one record.
            object.__setattr__(self, "dice", (max(self.dice), min(self.dice)))
        self._check_score()
        self._check_cube()
        if self.offer is not None:
            self._check_offer()
        if CHECKERS in self.position.borne_off():
            raise InvalidIdError(
                f"{self.position!r} is over: a side has borne off all its checkers",
                Code.GAME_OVER,
            )

    def _check_score(self) -> None:
        length = self.length
        if not 0 <= length <= MAX_MATCH_LENGTH:
            raise InvalidIdError(
                f"a match is 1 to {MAX_MATCH_LENGTH} points (0 for money), not {length}",
                Code.MATCH_LENGTH,
                length=length,
                most=MAX_MATCH_LENGTH,
            )
        for score in self.score:
            if score < 0 or (length and score >= length):
                raise InvalidIdError(
                    f"a score of {score} is not possible in a {length}-point match",
                    Code.SCORE_INVALID,
                    score=score,
                    length=length,
                )
        if length and (self.jacoby or self.beavers):
            raise InvalidIdError(
                "the Jacoby rule and beavers are money-game rules", Code.MONEY_OPTIONS
            )
        if self.crawford and (not length or self.score.count(length - 1) != 1):
            raise InvalidIdError(
                f"the Crawford game needs one player one point from winning, not {self.score} "
                f"in a {length}-point match",
                Code.CRAWFORD_SCORE,
            )

    def _check_cube(self) -> None:
        cube = self.cube
        if cube < 1 or cube & (cube - 1):
            raise InvalidIdError(
                f"the cube must be a power of two, not {cube}",
                Code.CUBE_NOT_POWER_OF_TWO,
                cube=cube,
            )
        # The largest cube the state reaches if the offer is taken.
        reached = cube * {None: 1, CubeOffer.DOUBLE: 2, CubeOffer.BEAVER: 4}[self.offer]
        if reached > MAX_CUBE:
            raise InvalidIdError(
                f"the cube goes up to {MAX_CUBE}, not {reached}",
                Code.CUBE_TOO_HIGH,
                cube=reached,
                most=MAX_CUBE,
            )
        if (cube > 1 or self.cube_owner is not None) and not self.cube_in_use:
            raise InvalidIdError(f"a {cube}-cube in a game without the cube", Code.CUBE_OFF)
        if self.crawford and (cube > 1 or self.cube_owner is not None):
            raise InvalidIdError(f"a {cube}-cube in the Crawford game", Code.CRAWFORD)

    def _check_offer(self) -> None:
        doubler = self.on_roll
        if self.dice is not None:
            raise InvalidIdError("dice rolled while a double waits", Code.DOUBLE_PENDING)
        if self.crawford:
            raise InvalidIdError("a double in the Crawford game", Code.CRAWFORD)
        if not self.cube_in_use:
            raise InvalidIdError("a double in a game without the cube", Code.CUBE_OFF)
        if self.length == 1:
            raise InvalidIdError("a double in a 1-point match", Code.CUBE_DEAD)
        if self.cube_owner == 1 - doubler:
            raise InvalidIdError(
                f"player {doubler} doubled a cube player {1 - doubler} owns",
                Code.OPPONENT_OWNS_CUBE,
            )
        if self.offer is CubeOffer.BEAVER and not self.beavers:
            raise InvalidIdError("a beaver in a game without beavers", Code.BEAVERS_OFF)

    # --- reading ---------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> PositionRecord:
        """Read whatever a player pasted: an XGID, or a Position ID and an optional Match ID.

        An XGID may stand anywhere after ``XGID=`` (XG copies it above a text diagram: the
        rest of that line is the XGID). GNU IDs may be ``posid:matchid`` as GNU Backgammon
        copies them, two words in either order, or its ``Position ID: ... Match ID: ...``.
        Quotes and Discord's code marks around either are dropped.
        Raises only :class:`InvalidIdError`, whatever the text.

        >>> PositionRecord.parse('Position ID: 4HPwATDgc/ABMA  Match ID: cImqAAAAAAAE').dice
        (5, 2)
        """
        found = _XGID_START.search(text)
        if found:
            return cls.from_xgid(text[found.start() :].splitlines()[0].strip().strip(_QUOTES))
        if text.count(":") >= 3:  # GNU IDs have one, or two with their labels
            return cls.from_xgid(text.strip().strip(_QUOTES))
        words = [w for w in _SEPARATORS.split(text) if w and w.lower() not in _GNU_LABELS]
        if len(words) == 1:
            return cls.from_gnu(words[0])
        if len(words) == 2:
            first, second = words
            if len(first) == 12 and len(second) == 14:  # the Match ID first
                first, second = second, first
            return cls.from_gnu(first, second)
        raise InvalidIdError(
            f"{text!r} is neither an XGID nor a Position ID (with a Match ID)",
            Code.ID_NOT_RECOGNISED,
            text=text,
        )

    @classmethod
    def from_xgid(cls, text: str) -> PositionRecord:
        """Read an XGID (with or without ``XGID=``).

        The bottom player is player 1. With ``B`` (a beaver) the cube fields are read as with
        ``D``: the cube before the double, and the turn the doubler's. XG's ``R`` (a raccoon)
        is refused: the engine has no raccoons. The highest cube (field 10) only says whether
        the cube is in use (``0``: no cube) and bounds the cube.
        """
        fields = XgidFields.decode(text)
        if fields.offer is XgOffer.RACCOON:
            raise InvalidIdError(
                f"{text!r} has a raccoon, which is not played here", Code.RACCOONS_OFF
            )
        rules = fields.rules
        if fields.match_length and rules > 1:
            raise InvalidIdError(
                f"field 8 of an XGID is 0 or 1 in a match (1: the Crawford game), not {rules}",
                Code.XGID_FIELD,
                number=8,
                value=str(rules),
            )
        cube = 1 << fields.cube_log2
        most = 1 << fields.max_cube_log2
        if fields.max_cube_log2 and cube > most:
            raise InvalidIdError(
                f"the cube of {text!r} is above its highest cube {most}",
                Code.CUBE_TOO_HIGH,
                cube=cube,
                most=most,
            )
        on_roll = 1 if fields.turn == 1 else 0
        money = not fields.match_length
        return cls(
            position=fields.board if on_roll == 1 else fields.board.flip(),
            on_roll=on_roll,
            dice=fields.dice,
            cube=cube,
            cube_owner={0: None, 1: 1, -1: 0}[fields.cube_position],
            score=(fields.score_top, fields.score_bottom),
            length=fields.match_length,
            crawford=not money and rules == 1,
            jacoby=money and bool(rules & 1),
            beavers=money and bool(rules & 2),
            cube_in_use=fields.max_cube_log2 > 0,
            offer=None if fields.offer is None else _FROM_XG[fields.offer],
        )

    @classmethod
    def from_gnu(cls, position_id: str, match_id: str | None = None) -> PositionRecord:
        """Read GNU Backgammon's Position ID and, if given, its Match ID.

        Without a Match ID the position is a money game, cube centred, before the roll, with
        player 1 on roll (the bottom player of an XGID). A resignation offer in the Match ID
        is left out: the record holds the position, not the offer. After a beaver GNU writes
        the beaverer's cube: the record keeps the cube before the double, centred when that
        was 1 and the doubler's otherwise (a Match ID does not say).
        """
        position = Position.from_id(position_id)
        if match_id is None:
            return cls(position=position)
        fields = MatchIdFields.decode(match_id)

        def invalid(why: str) -> InvalidIdError:
            return InvalidIdError(
                f"{match_id!r} is not a valid Match ID: {why}",
                Code.MATCH_ID_INVALID,
                text=match_id,
            )

        if fields.game_state == GAME_NONE:
            raise InvalidIdError(f"{match_id!r}: the game has not started", Code.NOT_STARTED)
        if fields.game_state != GAME_PLAYING:
            raise InvalidIdError(f"{match_id!r}: the game is over", Code.GAME_OVER)
        if fields.cube_owner not in (-1, 0, 1):
            raise invalid(f"cube owner {fields.cube_owner}")
        on_roll = fields.on_roll
        owner = None if fields.cube_owner < 0 else fields.cube_owner
        cube = fields.cube
        offer = None
        if fields.double_offered:
            if fields.turn == 1 - on_roll or fields.resigned:
                offer = CubeOffer.DOUBLE
            elif owner == 1 - on_roll and cube >= 2:
                offer = CubeOffer.BEAVER
                cube //= 2
                owner = None if cube == 1 else on_roll
            else:
                raise invalid("a double that is neither offered nor beavered")
        elif fields.turn != on_roll and not fields.resigned:
            raise invalid(f"player {fields.turn} acts while player {on_roll} is on roll")
        dice: Dice | None = None
        if fields.dice != (0, 0):
            dice = fields.dice
            if min(dice) < 1 or max(dice) > 6:
                raise InvalidIdError(
                    f"{match_id!r}: {dice} is not a roll",
                    Code.DICE_INVALID,
                    dice=f"{dice[0]}{dice[1]}",
                )
        return cls(
            position=position,
            on_roll=on_roll,
            dice=dice,
            cube=cube,
            cube_owner=owner,
            score=fields.score,
            length=fields.match_length,
            crawford=fields.crawford,
            jacoby=fields.jacoby,
            beavers=offer is CubeOffer.BEAVER,  # a Match ID has no rule for it but a beaver
            offer=offer,
        )

    @classmethod
    def from_game(cls, game: Game) -> PositionRecord:
        """The state of an engine game, for its IDs.

        Refuses a game waiting for its opening roll and a finished one (neither has a player
        on roll to analyse); leaves out a pending resignation.
        """
        if game.phase is Phase.OPENING:
            raise NotAllowedNowError("The game has not started yet.", Code.NOT_STARTED)
        if game.phase is Phase.OVER:
            raise NotAllowedNowError("The game is over.", Code.GAME_OVER)
        cube, owner = game.cube, game.cube_owner
        offer = None
        if game.phase is Phase.DOUBLED:
            offer = CubeOffer.DOUBLE
            if game.beaver_pending:
                # The engine has already turned the cube to the beaverer; the IDs want the
                # cube the doubler turned, which was centred unless a take had turned it.
                offer = CubeOffer.BEAVER
                cube //= 2
                owner = None if cube <= 1 << game.auto_doubles_done else game.on_roll
        options = game.options
        return cls(
            position=game.position,
            on_roll=game.on_roll,
            dice=game.dice if game.phase is Phase.MOVE else None,
            cube=cube,
            cube_owner=owner,
            score=game.score,
            length=options.length,
            crawford=game.crawford,
            jacoby=options.jacoby,
            beavers=options.beavers,
            cube_in_use=options.cube,
            offer=offer,
        )

    # --- writing ---------------------------------------------------------------------------

    def swapped(self) -> PositionRecord:
        """The same state with the players' numbers exchanged: player 0 becomes player 1
        and the other way round (the board, seen by the player on roll, is unchanged).

        >>> record = PositionRecord.parse('XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:1:0:5:10')
        >>> record.on_roll, record.score, record.swapped().on_roll, record.swapped().score
        (1, (1, 2), 0, (2, 1))
        """
        owner = None if self.cube_owner is None else 1 - self.cube_owner
        return replace(
            self,
            on_roll=1 - self.on_roll,
            cube_owner=owner,
            score=(self.score[1], self.score[0]),
        )

    def with_dice(self, dice: Dice) -> PositionRecord:
        """This state with ``dice`` rolled (they replace any the record had). A record with a
        double waiting for its answer has no roll to make: :class:`InvalidIdError`."""
        return replace(self, dice=dice)

    @property
    def double_pending(self) -> bool:
        """Whether a double (or a beaver) waits for an answer."""
        return self.offer is not None

    def to_game(self) -> Game:
        """An engine game in this state, to analyse or to play on from.

        Its game number is 1 and it has no history: the IDs say neither. A centred cube
        above 1 in a money game counts as automatic doubles, the only way to get one.
        """
        money = not self.length
        cube, owner = self.cube, self.cube_owner
        if self.offer is CubeOffer.BEAVER:  # the engine's beaver: turned to the beaverer
            cube, owner = cube * 2, 1 - self.on_roll
        phase = Phase.ROLL
        if self.offer is not None:
            phase = Phase.DOUBLED
        elif self.dice is not None:
            phase = Phase.MOVE
        return Game(
            options=MatchOptions(
                length=self.length,
                cube=self.cube_in_use,
                jacoby=self.jacoby,
                beavers=self.beavers,
            ),
            position=self.position,
            on_roll=self.on_roll,
            phase=phase,
            dice=self.dice,
            cube=cube,
            cube_owner=owner,
            score=self.score,
            crawford=self.crawford,
            post_crawford=not money and not self.crawford and self.length - 1 in self.score,
            auto_doubles_done=(
                self.cube.bit_length() - 1 if money and self.cube_owner is None else 0
            ),
        )

    def xgid(self) -> str:
        """The XGID, as XG writes it: player 1 at the bottom, the highest cube 2**10.

        A game without the cube writes the highest cube as 0, which GNU Backgammon reads as
        cubeless; a cube past 2**10 raises the highest cube to match.
        """
        rules = int(self.crawford) if self.length else int(self.jacoby) + 2 * int(self.beavers)
        reached = self.cube * {None: 1, CubeOffer.DOUBLE: 2, CubeOffer.BEAVER: 4}[self.offer]
        most = max(DEFAULT_MAX_CUBE_LOG2, reached.bit_length() - 1) if self.cube_in_use else 0
        return XgidFields(
            board=self.position if self.on_roll == 1 else self.position.flip(),
            cube_log2=self.cube.bit_length() - 1,
            cube_position={None: 0, 1: 1, 0: -1}[self.cube_owner],
            turn=1 if self.on_roll == 1 else -1,
            dice=self.dice,
            offer=None if self.offer is None else _XG_OFFERS[self.offer],
            score_bottom=self.score[1],
            score_top=self.score[0],
            rules=rules,
            match_length=self.length,
            max_cube_log2=most,
        ).encode()

    def position_id(self) -> str:
        """GNU Backgammon's Position ID (the board seen by the player on roll)."""
        return self.position.position_id()

    def match_id(self) -> str:
        """GNU Backgammon's Match ID, the one :meth:`to_game`'s game writes."""
        return self.to_game().match_id()

    def __repr__(self) -> str:
        return f"PositionRecord({self.xgid()!r})"
